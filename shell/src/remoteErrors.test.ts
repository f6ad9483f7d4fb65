import { incompatibleShared, needsNewer } from './remoteErrors';

const runtimeMessage = (loaded: string, needs: string) =>
  new Error(
    `[ Federation Runtime ]: Version ${loaded} from shell of shared singleton module react does not satisfy the requirement of remote_patient which needs ${needs})`,
  );

test('reads the package and versions from the federation runtime mismatch error', () => {
  expect(incompatibleShared(runtimeMessage('19.3.1', '^18.3.1'))).toEqual({ pkg: 'react', loaded: '19.3.1', needs: '^18.3.1' });
});

test('other failures are not a mismatch', () => {
  expect(incompatibleShared(new Error('remote_doctor unreachable'))).toBeUndefined();
  expect(incompatibleShared(undefined)).toBeUndefined();
});

test('newer or older than the loaded version', () => {
  expect(needsNewer({ pkg: '@careloop/shared-auth', loaded: '1.1.0', needs: '^1.2.0' })).toBe(true);
  expect(needsNewer({ pkg: 'react', loaded: '19.3.1', needs: '^18.3.1' })).toBe(false);
});
