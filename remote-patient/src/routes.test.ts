import routes from './routes';

// The patient's account sidebar (SPEC §2), as this list declares it: the shell shows it in `order`.
test("the patient's sidebar entries are declared on their routes, in SPEC §2's words and order", () => {
  const entries = routes
    .flatMap(({ path, access, nav }) => (nav ? [{ path, access, ...nav }] : []))
    .sort((a, b) => a.order - b.order);
  expect(entries.map((entry) => [entry.label, entry.path])).toEqual([
    ['Personal Information', '/patient/edit'],
    ['Files', '/patient/dashboard/medical-files'],
    ['Prescription', '/prescription'],
    ['Medical Records', '/patient/all-medical-records'],
    ['Assigned Doctors', '/patient/assign-doctors'],
    ['Two-Factor Authentication', '/patient/enable2fa'],
    ['Signed-in devices', '/patient/sessions'],
    ['Notifications', '/patient/notifications'],
  ]);
  // The entry is for the role its route admits.
  expect(entries.every((entry) => entry.access === 'patient')).toBe(true);
});
