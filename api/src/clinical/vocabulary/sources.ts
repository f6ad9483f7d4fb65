/*
 * The references the vocabulary's entries cite, named once so every entry can carry its source.
 */
export const SOURCES = {
  atc: 'WHO Collaborating Centre for Drug Statistics Methodology, ATC/DDD Index 2024 (atcddd.fhi.no)',
  bnf: 'British National Formulary (BNF), NICE; medicines A–Z and brand names',
  dmd: 'NHS Dictionary of medicines and devices (dm+d), product and brand names',
  fda: 'US FDA Orange Book / DailyMed, US brand names and product ingredients',
  ismp: 'ISMP List of Error-Prone Abbreviations (2021) and common clinical shorthand',
  khan2022: 'Khan DA et al., Drug allergy: a 2022 practice parameter update, J Allergy Clin Immunol 2022;150:1333–93',
  romano2020:
    'Romano A et al., Towards a more precise diagnosis of hypersensitivity to beta-lactams — an EAACI position paper, Allergy 2020;75:1300–15',
  zagursky2018:
    'Zagursky RJ, Pichichero ME, Cross-reactivity in β-lactam allergy, J Allergy Clin Immunol Pract 2018;6:72–81 (R1 side-chain groups)',
  opioid:
    'Khan DA et al. 2022 (above), opioid hypersensitivity: most reactions are direct mast-cell activation (pseudo-allergy); Li PH et al., Opioid hypersensitivity: predictors of allergy and role of skin testing, J Allergy Clin Immunol Pract 2017;5:1601–6',
  nsaid:
    'Kowalski ML et al., Classification and practical approach to the diagnosis and management of hypersensitivity to NSAIDs, Allergy 2013;68:1219–32 (EAACI/ENDA)',
  sulfa:
    'Strom BL et al., Absence of cross-reactivity between sulfonamide antibiotics and sulfonamide nonantibiotics, N Engl J Med 2003;349:1628–35',
} as const;
