import { checkManifest, forgetIncompatibleRemotes, incompatibleRemote, unmetRequirement } from './sharedVersions';
import { incompatibleShared } from './remoteErrors';

// What remote-patient's mf-manifest.json lists under "shared" (fields the check reads).
const manifest = (sharedAuth: string, react = '^19.2.0') => ({
  name: 'remote_patient',
  shared: [
    { name: 'react', version: react.slice(1), requiredVersion: react, singleton: true },
    { name: '@careloop/shared-auth', version: sharedAuth.slice(1), requiredVersion: sharedAuth, singleton: true },
    { name: 'zustand', version: '9.0.0', requiredVersion: '^9.0.0', singleton: true },
    { name: '@careloop/shared-ui', version: '2.0.0', requiredVersion: '^2.0.0', singleton: false },
  ],
});
const page = {
  react: { version: '19.2.0', strict: true },
  '@careloop/shared-auth': { version: '1.1.2', strict: true },
  zustand: { version: '5.0.8', strict: false },
};

beforeEach(() => forgetIncompatibleRemotes());

test('a strict singleton the page has at an older version is unmet; versioned and loose ones are not', () => {
  expect(unmetRequirement(manifest('^1.2.0').shared, page)).toEqual({
    pkg: '@careloop/shared-auth',
    needs: '^1.2.0',
    loaded: '1.1.2',
  });
  expect(unmetRequirement(manifest('^1.1.0').shared, page)).toBeUndefined();
  expect(unmetRequirement(manifest('^1.1.0', '^19.4.0').shared, page)).toEqual({
    pkg: 'react',
    needs: '^19.4.0',
    loaded: '19.2.0',
  });
});

test('an incompatible manifest is refused in the runtime words, and logged once with both versions', () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const refuse = () => checkManifest('remote_patient', manifest('^1.2.0'), page);
    expect(refuse).toThrow('shared singleton module @careloop/shared-auth does not satisfy the requirement of remote_patient');
    expect(refuse).toThrow();
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0][0])).toContain('remote_patient needs @careloop/shared-auth ^1.2.0, this page has 1.1.2');
    expect(incompatibleRemote('remote_patient')).toEqual({ pkg: '@careloop/shared-auth', needs: '^1.2.0', loaded: '1.1.2' });
    try {
      refuse();
    } catch (err) {
      expect(incompatibleShared(err)).toEqual({ pkg: '@careloop/shared-auth', needs: '^1.2.0', loaded: '1.1.2' });
    }
  } finally {
    error.mockRestore();
  }
});

test('a compatible manifest, or an answer that is no manifest, passes', () => {
  expect(() => checkManifest('remote_patient', manifest('^1.1.0'), page)).not.toThrow();
  expect(() => checkManifest('remote_patient', undefined, page)).not.toThrow();
  expect(incompatibleRemote('remote_patient')).toBeUndefined();
});

test('a remote with its own exact shared-ui and shared-contracts releases passes; only its strict singletons are checked', () => {
  // As remote-doctor's manifest lists them since versioned packages are shared by exact version.
  const doctor = (sharedAuth: string) => ({
    name: 'remote_doctor',
    shared: [
      { name: '@careloop/shared-auth', version: sharedAuth.slice(1), requiredVersion: sharedAuth, singleton: true },
      { name: '@careloop/shared-ui', version: '1.6.0', requiredVersion: '1.6.0', singleton: false },
      { name: '@careloop/shared-contracts', version: '3.3.0', requiredVersion: '3.3.0', singleton: false },
    ],
  });
  expect(() => checkManifest('remote_doctor', doctor('^1.1.0'), page)).not.toThrow();
  expect(incompatibleRemote('remote_doctor')).toBeUndefined();
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    expect(() => checkManifest('remote_doctor', doctor('^1.2.0'), page)).toThrow('shared singleton module @careloop/shared-auth');
    expect(incompatibleRemote('remote_doctor')).toEqual({ pkg: '@careloop/shared-auth', needs: '^1.2.0', loaded: '1.1.2' });
  } finally {
    error.mockRestore();
  }
});
