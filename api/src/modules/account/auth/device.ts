import { UAParser } from 'ua-parser-js';

/** "Chrome 131 on Linux" from a User-Agent; what is unknown is left out ("Unknown device" when all is). */
export function deviceName(userAgent: string): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = new UAParser(userAgent).getResult();
  const major = browser.major ?? browser.version?.split('.')[0];
  const app = browser.name ? [browser.name, major].filter(Boolean).join(' ') : undefined;
  const system = os.name ? [os.name, os.name === 'Linux' ? undefined : os.version].filter(Boolean).join(' ') : undefined;
  if (app && system) return `${app} on ${system}`;
  return app ?? system ?? 'Unknown device';
}
