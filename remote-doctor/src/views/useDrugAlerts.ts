import { useEffect, useState } from 'react';
import type { MedicationAlert } from '@careloop/shared-contracts';
import { fetchDrugAlerts } from '@careloop/shared-auth';

/**
 * The prescribing check of a drug (the patient's allergies, on file and typed, and active
 * medications), once typing pauses. `refused` holds the alerts of a create the api refused (409:
 * a stop without a reason): they are shown for that drug until it changes. A check that fails says
 * so (`failed`): it never reads as "nothing found".
 */
export function useDrugAlerts(patientId: string, drug: string, typedAllergies: string[]) {
  const [check, setCheck] = useState<{ alerts: MedicationAlert[]; uncoded: string[]; omitted: number; failed: boolean }>({
    alerts: [],
    uncoded: [],
    omitted: 0,
    failed: false,
  });
  const [refused, setRefused] = useState<{ drug: string; alerts: MedicationAlert[] } | null>(null);
  const typed = typedAllergies.join(',');
  useEffect(() => {
    if (!drug.trim()) {
      setCheck({ alerts: [], uncoded: [], omitted: 0, failed: false });
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      fetchDrugAlerts(patientId, drug.trim(), typed ? typed.split(',') : [])
        .then((r) => live && setCheck({ alerts: r.alerts, uncoded: r.uncoded, omitted: r.omitted, failed: false }))
        .catch(() => live && setCheck({ alerts: [], uncoded: [], omitted: 0, failed: true }));
    }, 500);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [patientId, drug, typed]);
  const alerts = refused && refused.drug === drug ? refused.alerts : check.alerts;
  // `check` is what MedicationAlerts shows: the alerts, what was not recognised or left out, a failure
  return {
    alerts,
    check: { ...check, alerts },
    refusedWith: (refusedAlerts: MedicationAlert[]) => setRefused({ drug, alerts: refusedAlerts }),
  };
}
