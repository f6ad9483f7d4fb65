// A leaf: the entry type both the allergy-text reader and the medication checks use.

/** What an alert is computed from (a structured entry, or one read from free text). */
export interface AllergyEntry {
  substance: { text: string; code?: string };
  type: 'allergy' | 'intolerance';
  criticality: 'low' | 'high' | 'unable-to-assess';
  reactions: { manifestation: string; severity?: 'mild' | 'moderate' | 'severe' }[];
  clinicalStatus: 'active' | 'inactive' | 'resolved';
  verificationStatus: 'unconfirmed' | 'confirmed' | 'refuted';
  /**
   * Why an entry read from text needs a second look, in words ("the note says “negative challenge to
   * cefuroxime”", "family history, not necessarily the patient's own"). It is still checked as an
   * allergy like any other; the alert carries the sentence so the prescriber sees the doubt.
   */
  review?: string;
}
