export { buildSummary, DISCLAIMER, inline, type Summary, type SummaryOptions } from './summary';
export { news2, news2Band, news2SubScore, type News2Band, type News2Parameter, type News2Result } from './news2';
export { bpCategory, parseBloodPressure, parseBloodSugar, parsePulse, parseRespiratoryRate, parseTemperature, type BpCategory } from './vitals';
