/**
 * @jest-environment node
 */
import { createInstance, type ModuleFederation } from '@module-federation/enhanced/runtime';
import { SINGLETONS, VERSIONED, shared, versionedShare } from '../../webpack.common';

// The page's share scope as the shell and the remotes see it (one object, as the runtime passes it on),
// with each app's shared-ui declared as webpack.common.ts declares it for the version it was built with.
type Share = { singleton: boolean; requiredVersion: string; version: string };

function app(name: string, version: string, share: (version: string) => Share, scope: Record<string, unknown>) {
  const { singleton, requiredVersion } = share(version);
  const instance = createInstance({
    name,
    remotes: [],
    shareStrategy: 'loaded-first',
    shared: {
      '@careloop/shared-ui': {
        version,
        // what the app's own copy would be: its name, so a test sees whose copy a consumer got
        get: () => Promise.resolve(() => ({ builtInto: name, version })),
        shareConfig: { singleton, requiredVersion },
      },
    },
  });
  instance.initShareScopeMap('default', scope as never);
  return instance;
}

async function whoseSharedUi(instance: ModuleFederation) {
  const factory = await instance.loadShare<{ builtInto: string; version: string }>('@careloop/shared-ui');
  if (!factory) throw new Error('no shared-ui');
  return factory();
}

const own = shared['@careloop/shared-ui'].version;
const [major, minor] = own.split('.').map(Number);
// remote-doctor alone released the next minor: inside every other app's ^range.
const doctorRelease = `${major}.${minor + 1}.0`;

/** The shell, then remote-doctor's pages, then remote-patient's and remote-public's, in one tab. */
async function tab(share: (version: string) => Share) {
  const scope = {};
  const shell = app('shell', own, share, scope);
  const doctor = app('remote_doctor', doctorRelease, share, scope);
  const patient = app('remote_patient', own, share, scope);
  const publicApp = app('remote_public', own, share, scope);
  return {
    shell: await whoseSharedUi(shell),
    doctor: await whoseSharedUi(doctor),
    patient: await whoseSharedUi(patient),
    public: await whoseSharedUi(publicApp),
  };
}

test("each app's views get the shared-ui it was built with, although a remote loaded a newer one before them", async () => {
  const got = await tab(versionedShare);
  expect(got.doctor).toEqual({ builtInto: 'remote_doctor', version: doctorRelease });
  // one instance for the apps built with the same version: the first loaded
  expect(got.shell).toEqual({ builtInto: 'shell', version: own });
  expect(got.patient).toEqual({ builtInto: 'shell', version: own });
  expect(got.public).toEqual({ builtInto: 'shell', version: own });
});

test('shared by ^range, as before, the doctor team’s release reached the pages loaded after it', async () => {
  const got = await tab((version) => ({ singleton: false, requiredVersion: `^${version}`, version }));
  expect(got.patient).toEqual({ builtInto: 'remote_doctor', version: doctorRelease });
  expect(got.public).toEqual({ builtInto: 'remote_doctor', version: doctorRelease });
});

test('the versioned packages are exact; the stateful singletons stay singletons on a ^range', () => {
  for (const pkg of VERSIONED) {
    const declared = shared[pkg as keyof typeof shared];
    expect(declared).toEqual(expect.objectContaining({ singleton: false, requiredVersion: declared.version }));
  }
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
