import routes from './routes';

// The doctor's account sidebar (SPEC §2), as this list declares it: the shell shows it in `order`.
test("the doctor's sidebar entries are declared on their routes, in SPEC §2's words and order", () => {
  const entries = routes
    .flatMap(({ path, access, nav }) => (nav ? [{ path, access, ...nav }] : []))
    .sort((a, b) => a.order - b.order);
  expect(entries.map((entry) => [entry.label, entry.path])).toEqual([
    ['Personal Information', '/doctor/edit'],
    ['Files', '/doctor/dashboard/medical-files'],
    ['Prescription', '/prescription'],
    ['Medical Records', '/doctor/all-medical-records'],
    ['Connect to Patients', '/doctor/assign-patients'],
    ['Two-Factor Authentication', '/doctor/enable2fa'],
    ['Signed-in devices', '/doctor/sessions'],
    ['Send Reminder', '/doctor/dashboard/reminder'],
    ['Notifications', '/doctor/notifications'],
  ]);
  // The entry is for the role its route admits.
  expect(entries.every((entry) => entry.access === 'doctor')).toBe(true);
});
