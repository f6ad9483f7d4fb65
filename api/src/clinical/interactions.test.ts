import { medicationAlerts } from './medication-safety';
import { INTERACTIONS } from './interactions';

const alertsFor = (drug: string, med: string) =>
  medicationAlerts(drug, { allergies: [], activeMedications: [med] }).filter((a) => a.kind === 'interaction');

describe('drug–drug interactions: the ONC high-priority list and the BNF severe pairs', () => {
  it.each([
    // PDE-5 inhibitors with every nitrate: stop
    ['sildenafil 50 mg', 'isosorbide mononitrate 60 mg MR', 'stop'],
    ['Viagra 50mg', 'GTN spray 400 micrograms prn', 'stop'],
    ['Cialis 10 mg', 'Imdur 60 mg', 'stop'],
    ['tadalafil', 'glyceryl trinitrate patch', 'stop'],
    ['vardenafil', 'isosorbide dinitrate', 'stop'],
    ['avanafil', 'nicorandil 10 mg bd', 'stop'],
    ['Levitra', 'ISMN 30 mg', 'stop'],
    ['sildenafil', 'amyl nitrite (poppers)', 'stop'],
    ['sildenafil', 'riociguat', 'stop'],
    ['riociguat', 'nitroglycerin', 'stop'],
    // azoles and macrolides with warfarin; with statins
    ['fluconazole 150 mg', 'warfarin 3 mg', 'warning'],
    ['Diflucan', 'Warfarin', 'warning'],
    ['miconazole oral gel', 'warfarin', 'warning'],
    ['itraconazole', 'warfarin', 'warning'],
    ['clarithromycin 500 mg bd', 'warfarin 5 mg', 'warning'],
    ['erythromycin', 'warfarin', 'warning'],
    ['simvastatin 40 mg', 'erythromycin 500 mg qds', 'stop'],
    ['erythromycin', 'simvastatin', 'stop'],
    ['clarithromycin', 'simvastatin 20 mg', 'stop'],
    ['itraconazole', 'simvastatin', 'stop'],
    ['ketoconazole', 'lovastatin', 'stop'],
    ['posaconazole', 'simvastatin', 'stop'],
    ['fluconazole', 'simvastatin', 'warning'],
    ['atorvastatin 80 mg', 'clarithromycin', 'warning'],
    ['Lipitor', 'fluconazole', 'warning'],
    ['atorvastatin', 'itraconazole', 'warning'],
    // potassium
    ['spironolactone 25 mg', 'potassium chloride', 'warning'],
    ['Sando-K', 'spironolactone', 'warning'],
    ['amiloride', 'Slow-K', 'warning'],
    ['eplerenone', 'lisinopril', 'warning'],
    // and the rest
    ['ibuprofen', 'methotrexate 15 mg weekly', 'warning'],
    ['amoxicillin', 'methotrexate', 'warning'],
    ['naproxen', 'lithium carbonate 400 mg', 'warning'],
    ['ramipril', 'Priadel', 'warning'],
    ['bendroflumethiazide', 'lithium', 'warning'],
    ['amiodarone', 'digoxin 125 micrograms', 'warning'],
    ['clarithromycin', 'digoxin', 'warning'],
    ['verapamil', 'digoxin', 'warning'],
    ['clopidogrel 75 mg', 'omeprazole 20 mg', 'warning'],
    ['esomeprazole', 'Plavix', 'warning'],
    ['apixaban', 'clopidogrel', 'warning'],
    ['rivaroxaban', 'naproxen', 'warning'],
    ['warfarin', 'ticagrelor', 'warning'],
    ['Eliquis', 'itraconazole', 'stop'],
    ['dabigatran', 'ketoconazole', 'stop'],
    ['rivaroxaban', 'ritonavir', 'stop'],
    ['apixaban', 'rifampicin', 'warning'],
    ['edoxaban', 'carbamazepine', 'warning'],
    ['warfarin', 'apixaban', 'warning'],
    ['allopurinol', 'azathioprine', 'warning'],
    ['bisoprolol', 'verapamil', 'stop'],
    ['atenolol', 'diltiazem', 'warning'],
    ['colchicine 500 micrograms', 'clarithromycin', 'stop'],
    ['ciprofloxacin', 'theophylline', 'warning'],
    ['Uniphyllin', 'clarithromycin', 'warning'],
    ['sertraline', 'ibuprofen', 'warning'],
    ['citalopram', 'warfarin', 'warning'],
    ['fluoxetine', 'apixaban', 'warning'],
    ['tramadol', 'sertraline', 'warning'],
    ['morphine', 'diazepam', 'warning'],
    ['oxycodone', 'pregabalin', 'warning'],
    ['codeine', 'gabapentin', 'warning'],
    ['zopiclone', 'tramadol', 'warning'],
    ['metformin', 'iodinated contrast', 'warning'],
    ['Omnipaque', 'metformin 500 mg', 'warning'],
    ['simvastatin 40 mg', 'amiodarone', 'warning'],
    ['warfarin', 'amiodarone', 'warning'],
    ['citalopram', 'clarithromycin', 'stop'],
  ])('%s with %s: %s', (drug, med, severity) => {
    const [alert, ...rest] = alertsFor(drug, med);
    expect(alert).toMatchObject({ kind: 'interaction', severity });
    expect(rest).toEqual([]);
    expect(alert.message).toMatch(/: .+\. .+\.$/);
  });

  it.each([
    ['sildenafil', 'amlodipine'],
    ['levothyroxine', 'amlodipine'],
    ['pravastatin', 'clarithromycin'],
    ['rosuvastatin', 'erythromycin'],
    ['clopidogrel', 'lansoprazole'],
    ['apixaban', 'paracetamol'],
    ['metformin', 'gliclazide'],
    ['salbutamol', 'amoxicillin'],
    ['furosemide', 'paracetamol'],
    ['warfarin', 'warfarin 3 mg'],
  ])('%s with %s: none', (drug, med) => {
    expect(alertsFor(drug, med)).toEqual([]);
  });

  it('every rule has a severity, an effect, advice and a source', () => {
    for (const i of INTERACTIONS) {
      expect(['stop', 'warning']).toContain(i.severity);
      expect(i.effect.length).toBeGreaterThan(10);
      expect(i.advice.length).toBeGreaterThan(5);
      expect(i.source.length).toBeGreaterThan(5);
    }
  });
});
