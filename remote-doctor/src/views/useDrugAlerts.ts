import { useEffect, useState } from 'react';
import type { MedicationAlert } from 'shared-contracts';
import { fetchDrugAlerts } from 'shared-auth';

/**
 * The prescribing check of a drug (the patient's allergies, on file and typed, and active
 * medications), once typing pauses. `refused` holds the alerts of a create the api refused (409:
 * a stop without a reason): they are shown for that drug until it changes.
 */
export function useDrugAlerts(patientId: string, drug: string, typedAllergies: string[]) {
  const [alerts, setAlerts] = useState<MedicationAlert[]>([]);
  const [refused, setRefused] = useState<{ drug: string; alerts: MedicationAlert[] } | null>(null);
  const typed = typedAllergies.join(',');
  useEffect(() => {
    if (!drug.trim()) {
      setAlerts([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      fetchDrugAlerts(patientId, drug.trim(), typed ? typed.split(',') : [])
        .then((r) => live && setAlerts(r.alerts))
        .catch(() => live && setAlerts([]));
    }, 500);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [patientId, drug, typed]);
  const shown = refused && refused.drug === drug ? refused.alerts : alerts;
  return { alerts: shown, refusedWith: (refusedAlerts: MedicationAlert[]) => setRefused({ drug, alerts: refusedAlerts }) };
}
