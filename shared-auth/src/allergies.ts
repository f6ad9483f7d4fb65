import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AllergyIntoleranceCreate, AllergyIntoleranceWrite, AllergyReport } from '@careloop/shared-contracts';
import { call } from './client';
import { recordsKey } from './records';

export const allergiesKey = ['allergies'] as const;

/** GET /allergies/{patientId}: structured entries, then the unreviewed free-text ones. Idle without a patient. */
export const useAllergies = (patientId: string | undefined) =>
  useQuery({
    queryKey: [...allergiesKey, patientId],
    queryFn: () => call('listAllergies', { params: { patientId: patientId! } }),
    enabled: !!patientId,
  });

/** Every write refetches the list, and the records: their assessments read the allergies. */
function useAllergyMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: allergiesKey }),
        queryClient.invalidateQueries({ queryKey: recordsKey }),
      ]),
  });
}

/** POST /allergies/{patientId} (doctor): a new entry, or the review of a free-text note (`reviews`). */
export const useCreateAllergy = (patientId: string) =>
  useAllergyMutation((body: AllergyIntoleranceCreate) => call('createAllergy', { params: { patientId }, body }));

/** PUT /allergy/{id} (doctor): edit, confirm or refute. */
export const useUpdateAllergy = () =>
  useAllergyMutation(({ id, body }: { id: string; body: AllergyIntoleranceWrite }) =>
    call('updateAllergy', { params: { id }, body }),
  );

/** POST /patient/allergies (patient): report one, unconfirmed. */
export const useReportAllergy = () => useAllergyMutation((body: AllergyReport) => call('reportAllergy', { body }));

/** GET /allergy-substances?q=: the vocabulary's names for what is typed (from 2 characters on). */
export const useSubstanceSuggestions = (typed: string) => {
  const q = typed.trim();
  return useQuery({
    queryKey: ['allergy-substances', q.toLowerCase()],
    queryFn: () => call('suggestAllergySubstances', { query: { q, limit: 8 } }),
    enabled: q.length >= 2,
    staleTime: Infinity,
  });
};
