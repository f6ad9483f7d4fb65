// ua-parser-js 1.0.x ships no types; only what lib code reads of it.
declare module 'ua-parser-js' {
  interface NamedVersion {
    name?: string;
    version?: string;
  }
  export class UAParser {
    constructor(userAgent?: string);
    getResult(): { ua: string; browser: NamedVersion & { major?: string }; os: NamedVersion };
  }
}
