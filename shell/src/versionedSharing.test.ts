/**
 * @jest-environment node
 */
import { BUILT_IN, SINGLETONS, shared } from '../../webpack.common';

test('shared-ui and shared-contracts are built into each app, never shared', () => {
  for (const pkg of BUILT_IN) {
    expect(Object.keys(shared)).not.toContain(pkg);
    expect(SINGLETONS).not.toContain(pkg);
  }
});

test('the stateful singletons stay singletons on a ^range', () => {
  for (const pkg of [
    'react',
    'react-dom',
    '@careloop/shared-auth',
    '@careloop/shared-router',
    'styled-components',
    '@tanstack/react-query',
  ]) {
    expect(SINGLETONS).toContain(pkg);
    const declared = shared[pkg as keyof typeof shared];
    expect(declared).toEqual(expect.objectContaining({ singleton: true, requiredVersion: `^${declared.version}` }));
  }
});
