// `npm run corpus -w api`: the medication-safety corpus's sensitivity and specificity (overall,
// severe cases, issue 13 cases), and every miss and false alarm. Exit code 1 if a severe case is missed.
import corpus from '../src/clinical/corpus/medication-safety.json';
import { evaluate, report, type CorpusCase } from '../src/clinical/corpus/evaluate';

const result = evaluate(corpus.cases as CorpusCase[]);
console.log(report(result));
process.exitCode = result.severe.sensitivity === 1 ? 0 : 1;
