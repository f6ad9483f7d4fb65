import { formatFileSize } from './Files';

test('a file size reads in bytes, KB or MB', () => {
  expect(formatFileSize(0)).toBe('0 bytes');
  expect(formatFileSize(1023)).toBe('1023 bytes');
  expect(formatFileSize(1024)).toBe('1 KB');
  expect(formatFileSize(860_000)).toBe('840 KB');
  expect(formatFileSize(1_258_291)).toBe('1.2 MB');
  expect(formatFileSize(20 * 1024 * 1024)).toBe('20.0 MB');
});
