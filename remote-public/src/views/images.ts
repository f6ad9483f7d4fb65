/**
 * The four showcase illustrations: small, self-contained SVGs turned into data URIs
 * (no external requests, no image files to ship).
 */
const svgUri = (body: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 300">${body}</svg>`)}`;

/** A clipboard with a patient chart, a rising trend and a confirmed decision. */
export const informedDecisionsImage = svgUri(`
<rect width="480" height="300" rx="24" fill="#e3f4f2"/>
<circle cx="400" cy="60" r="70" fill="#cdebe7"/>
<rect x="120" y="48" width="190" height="220" rx="14" fill="#ffffff" stroke="#0b6e69" stroke-width="4"/>
<rect x="175" y="34" width="80" height="28" rx="8" fill="#0b6e69"/>
<rect x="145" y="88" width="110" height="10" rx="5" fill="#9fd3cd"/>
<rect x="145" y="108" width="80" height="10" rx="5" fill="#cfe3e1"/>
<polyline points="148,220 185,190 215,204 250,160 282,140" fill="none" stroke="#1d4ed8" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
<circle cx="282" cy="140" r="8" fill="#1d4ed8"/>
<line x1="145" y1="240" x2="285" y2="240" stroke="#cfe3e1" stroke-width="4"/>
<circle cx="330" cy="210" r="42" fill="#0b6e69"/>
<path d="M311 211l13 13 25-27" fill="none" stroke="#ffffff" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>
`);

/** A clinician with a stethoscope, framed by signs of progress. */
export const empoweringCliniciansImage = svgUri(`
<rect width="480" height="300" rx="24" fill="#e8effd"/>
<circle cx="90" cy="240" r="80" fill="#d6e2fb"/>
<path d="M150 300v-40c0-48 40-78 90-78s90 30 90 78v40z" fill="#ffffff" stroke="#1d4ed8" stroke-width="4"/>
<path d="M240 182l-22 40 22 78 22-78z" fill="#0b6e69"/>
<circle cx="240" cy="120" r="46" fill="#f3c9a8"/>
<path d="M194 116c0-30 20-48 46-48s46 18 46 48c-12-14-28-20-46-20s-34 6-46 20z" fill="#3d3a4b"/>
<path d="M200 196c-8 26-8 48 10 60 16 10 34 0 36-18" fill="none" stroke="#064e4a" stroke-width="6" stroke-linecap="round"/>
<circle cx="246" cy="236" r="9" fill="#064e4a"/>
<path d="M372 70l8 18 18 8-18 8-8 18-8-18-18-8 18-8z" fill="#0b6e69"/>
<path d="M100 64l5 11 11 5-11 5-5 11-5-11-11-5 11-5z" fill="#1d4ed8"/>
<rect x="340" y="180" width="70" height="56" rx="10" fill="#ffffff" stroke="#0b6e69" stroke-width="4"/>
<path d="M352 220l14-14 12 10 20-20" fill="none" stroke="#0b6e69" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>
`);

/** A heart with a pulse line inside a network of connected nodes: AI-assisted care. */
export const aiPatientCareImage = svgUri(`
<rect width="480" height="300" rx="24" fill="#eef6f5"/>
<g stroke="#9fd3cd" stroke-width="3">
<line x1="70" y1="70" x2="160" y2="120"/><line x1="70" y1="230" x2="160" y2="180"/>
<line x1="410" y1="70" x2="320" y2="120"/><line x1="410" y1="230" x2="320" y2="180"/>
<line x1="70" y1="70" x2="70" y2="230"/><line x1="410" y1="70" x2="410" y2="230"/>
</g>
<g fill="#0b6e69"><circle cx="70" cy="70" r="12"/><circle cx="70" cy="230" r="12"/><circle cx="410" cy="70" r="12"/><circle cx="410" cy="230" r="12"/></g>
<g fill="#1d4ed8"><circle cx="160" cy="120" r="8"/><circle cx="160" cy="180" r="8"/><circle cx="320" cy="120" r="8"/><circle cx="320" cy="180" r="8"/></g>
<path d="M240 252s-92-52-92-118c0-30 22-52 50-52 18 0 32 10 42 24 10-14 24-24 42-24 28 0 50 22 50 52 0 66-92 118-92 118z" fill="#ffffff" stroke="#0b6e69" stroke-width="6"/>
<polyline points="168,160 205,160 220,130 240,195 258,118 272,160 312,160" fill="none" stroke="#b91c1c" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
`);

/** Two care-team members sharing a record, linked by conversation. */
export const collaborativePracticeImage = svgUri(`
<rect width="480" height="300" rx="24" fill="#e3f4f2"/>
<circle cx="130" cy="120" r="36" fill="#f3c9a8"/>
<path d="M60 270c0-46 32-80 70-80s70 34 70 80z" fill="#0b6e69"/>
<circle cx="350" cy="120" r="36" fill="#c99a74"/>
<path d="M280 270c0-46 32-80 70-80s70 34 70 80z" fill="#1d4ed8"/>
<rect x="196" y="150" width="88" height="110" rx="10" fill="#ffffff" stroke="#064e4a" stroke-width="4"/>
<g stroke="#9fd3cd" stroke-width="6" stroke-linecap="round"><line x1="212" y1="176" x2="268" y2="176"/><line x1="212" y1="198" x2="258" y2="198"/><line x1="212" y1="220" x2="264" y2="220"/></g>
<rect x="168" y="30" width="78" height="46" rx="12" fill="#ffffff" stroke="#0b6e69" stroke-width="4"/>
<path d="M184 76l-6 16 20-16" fill="#ffffff" stroke="#0b6e69" stroke-width="4" stroke-linejoin="round"/>
<rect x="236" y="52" width="78" height="46" rx="12" fill="#0b6e69"/>
<path d="M298 98l6 16-20-16z" fill="#0b6e69"/>
<g fill="#0b6e69"><circle cx="190" cy="53" r="5"/><circle cx="207" cy="53" r="5"/><circle cx="224" cy="53" r="5"/></g>
<g fill="#ffffff"><circle cx="258" cy="75" r="5"/><circle cx="275" cy="75" r="5"/><circle cx="292" cy="75" r="5"/></g>
`);
