import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { apiLogIn, auth, connectedPair, uploadPdf } from './helpers';

// axe (every rule it runs by default, best practices included) over every page of the walkthrough,
// as a visitor, a patient and a doctor, on a laptop and on a phone: a violation of any impact
// fails. Each page also has its own <title>, and its landmarks and named regions each a name that
// resolves and is not shared by another of the same role.
const WIDTHS = [1280, 390];
// Up to 30 pages each, axe on every one: more than the default minute on a busy machine.
test.describe.configure({ timeout: 300_000 });

const RECORD_STEPS = [
  'Record',
  'Presenting complaint',
  'Systemic history',
  'Past history',
  'Personal history',
  'General physical examination',
  'System examination',
  'Investigations and treatment',
];

interface Finding {
  page: string;
  rule: string;
  impact: string;
  targets: string[];
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Views render once their queries answer: wait until nothing is marked busy.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator('#root')).not.toBeEmpty();
}

/** What axe does not check: names that point at no element, unnamed or same-named landmarks. */
async function landmarkProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const attr of ['aria-labelledby', 'aria-describedby'])
      for (const el of document.querySelectorAll(`[${attr}]`))
        for (const id of el.getAttribute(attr)!.split(/\s+/).filter(Boolean))
          if (!document.getElementById(id)) out.push(`<${el.tagName.toLowerCase()}> ${attr} names no element: "${id}"`);
    const nameOf = (el: Element) => {
      const by = el.getAttribute('aria-labelledby');
      if (by)
        return by
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
          .join(' ')
          .trim();
      return el.getAttribute('aria-label')?.trim() ?? '';
    };
    const TAG_ROLE: Record<string, string> = {
      NAV: 'navigation',
      MAIN: 'main',
      ASIDE: 'complementary',
      SECTION: 'region',
      FORM: 'form',
    };
    const seen = new Map<string, number>();
    for (const el of document.querySelectorAll('nav, main, aside, section, form, [role]')) {
      const role = el.getAttribute('role') ?? TAG_ROLE[el.tagName];
      if (!['navigation', 'main', 'complementary', 'region', 'form', 'search'].includes(role)) continue;
      if ((el as HTMLElement).offsetParent === null && getComputedStyle(el).position !== 'fixed') continue; // not shown
      const name = nameOf(el);
      // a section or form without a name is no landmark; a navigation or complementary one must have one
      if (!name && (role === 'region' || role === 'form' || role === 'main')) {
        if (role === 'main') seen.set('main|', (seen.get('main|') ?? 0) + 1);
        continue;
      }
      if (!name) out.push(`a ${role} landmark without a name`);
      seen.set(`${role}|${name}`, (seen.get(`${role}|${name}`) ?? 0) + 1);
    }
    for (const [key, n] of seen) if (n > 1) out.push(`${n} ${key.replace('|', ' landmarks named "')}"`);
    return out;
  });
}

async function audit(page: Page, name: string, findings: Finding[]) {
  await settle(page);
  const { violations, passes } = await new AxeBuilder({ page }).analyze();
  // axe really looked at a rendered page (a blank one would pass vacuously)
  expect(passes.length, name).toBeGreaterThan(10);
  for (const problem of await landmarkProblems(page))
    findings.push({ page: name, rule: 'landmark-names', impact: 'moderate', targets: [problem] });
  for (const v of violations) {
    findings.push({
      page: name,
      rule: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    });
  }
}

/** Each page's own title (WCAG 2.4.2): "<what> — CareLoop", never the bare product name, never another page's. */
async function visit(page: Page, path: string, findings: Finding[], titles: Map<string, string>) {
  await page.goto(path);
  await audit(page, path, findings);
  const title = await page.title();
  if (!/^.+ — CareLoop$/.test(title)) findings.push({ page: path, rule: 'page-title', impact: 'serious', targets: [title] });
  const twin = [...titles].find(([, t]) => t === title);
  if (twin) findings.push({ page: path, rule: 'page-title', impact: 'serious', targets: [`"${title}", as ${twin[0]}`] });
  titles.set(path, title);
}

/** A connected pair with a record, a prescription and a file, both signed in through the api. */
async function careNetwork(page: Page) {
  const pair = await connectedPair(page.request, {
    doctor: { name: 'Dr Ines Alvarez' },
    patient: { name: 'Tomas Weber', DOB: '1958-09-04', gender: 'Male', occupation: 'Teacher' },
  });
  const record = await page.request.post(`${API_URL}/medicalhistory/${pair.patientId}`, {
    headers: auth(pair.doctor),
    data: {
      medicalHistory: { title: 'Annual review', biodata: { modeOfAdmission: 'Outpatient' }, systemicHistory: {} },
      examination: { generalPhysicalExamination: { bloodPressure: '150/95' } },
      investigations: { electrocardiogram: 'ST elevation in II, III, aVF' },
      treatment: {},
    },
  });
  expect(record.status()).toBe(201);
  const recordId = (await record.json()).record._id as string;
  const prescription = await page.request.post(`${API_URL}/prescription/${pair.patientId}`, {
    headers: auth(pair.doctor),
    data: { prescribedDrug: 'Ramipril', dosage: '5 mg', administrationRoute: 'Oral', dosageFrequency: 'Once daily' },
  });
  expect(prescription.status()).toBe(201);
  await uploadPdf(page.request, { token: pair.patient, id: pair.patientId }, 'lipids-2026.pdf');
  return { ...pair, recordId };
}

async function signIn(page: Page, role: 'patient' | 'doctor', email: string, width: number) {
  const token = await apiLogIn(page.request, role, email);
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/');
  await page.evaluate(([t, r]) => (localStorage.setItem('token', t), localStorage.setItem('role', r)), [token, role]);
}

for (const width of WIDTHS) {
  test(`at ${width} px the public pages have no axe violations of any impact, and their own titles`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const findings: Finding[] = [];
    const titles = new Map<string, string>();
    for (const path of [
      '/',
      '/about',
      '/team',
      '/features',
      '/contact',
      '/login/patient',
      '/login/doctor',
      '/patient/signup',
      '/doctor/signup',
      '/patient/forgot-password',
      '/doctor/forgot-password',
    ])
      await visit(page, path, findings, titles);
    expect(findings).toEqual([]);
  });

  test(`at ${width} px the patient's pages have no axe violations of any impact, and their own titles`, async ({ page }) => {
    const { patientEmail, recordId } = await careNetwork(page);
    await signIn(page, 'patient', patientEmail, width);
    const findings: Finding[] = [];
    const titles = new Map<string, string>();
    for (const path of [
      '/patient/dashboard',
      '/patient/edit',
      '/patient/all-medical-records',
      `/all-medical-records/${recordId}`,
      '/prescription',
      '/patient/dashboard/medical-files',
      '/patient/dashboard/medical-files/upload',
      '/patient/assign-doctors',
      '/patient/view-incoming-requests',
      '/patient/view-outgoing-requests',
      '/patient/enable2fa',
      '/patient/access-history',
    ])
      await visit(page, path, findings, titles);
    expect(findings).toEqual([]);
  });

  test(`at ${width} px the doctor's pages, each step of the record form included, have no axe violations of any impact, and their own titles`, async ({
    page,
  }) => {
    const { doctorEmail, patientId, recordId } = await careNetwork(page);
    await signIn(page, 'doctor', doctorEmail, width);
    const findings: Finding[] = [];
    const titles = new Map<string, string>();
    for (const path of [
      '/doctor/dashboard',
      '/doctor/edit',
      '/doctor/assign-patients',
      '/doctor/all-medical-records',
      `/doctor/all-medical-records?patientId=${patientId}`,
      `/all-medical-records/${recordId}`,
      '/prescription',
      '/create-prescription',
      `/create-prescription/${patientId}`,
      '/medical-record/create',
      '/doctor/dashboard/medical-files',
      '/doctor/dashboard/reminder',
      '/doctor/view-incoming-requests',
      '/doctor/view-outgoing-requests',
      '/doctor/enable2fa',
      '/doctor/access-history',
    ])
      await visit(page, path, findings, titles);

    // The eight-step record form, step by step.
    await page.goto(`/medical-record/create/${patientId}`);
    for (const [i, title] of RECORD_STEPS.entries()) {
      await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
      if (i === 0) {
        await page.getByLabel('Title').fill('Annual review');
        await page.getByLabel('Mode of admission').selectOption('Outpatient');
      }
      if (i === RECORD_STEPS.length - 1) break;
      await audit(page, `/medical-record/create/{id} step ${i + 1}: ${title}`, findings);
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await expect(page.getByRole('button', { name: 'Finish' })).toBeVisible();
    await audit(page, '/medical-record/create/{id} last step', findings);
    expect(findings).toEqual([]);
  });
}
