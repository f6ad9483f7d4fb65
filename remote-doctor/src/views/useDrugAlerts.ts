import { useEffect, useState } from 'react';
import type { DrugAllergyAlert } from 'shared-contracts';
import { fetchDrugAlerts } from 'shared-auth';

/** Checks a drug against the patient's recorded (and typed) allergies, once typing pauses. */
export function useDrugAlerts(patientId: string, drug: string, typedAllergies: string[]) {
  const [alerts, setAlerts] = useState<DrugAllergyAlert[]>([]);
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
  return alerts;
}
