import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../stack';
import { PASSWORD, logIn } from './helpers';

// Issue 16: the 2FA QR code at its own pixel size, and profile e-mails that wrap only at "@" and
// dots, on a laptop and on a phone.
const WIDTHS = [1280, 390];

let n = 0;
// Several dots: break points between pieces, none of them longer than a narrow card line.
const longEmail = () => `nia.obi.${Date.now()}${n++}@stmarys.hospital.example.com`;

async function signUpAndLogIn(page: Page, email: string, width: number) {
  const signup = await page.request.post(`${API_URL}/patient/signup`, { data: { name: 'Nia Obi', email, password: PASSWORD } });
  expect(signup.status()).toBe(201);
  // The desktop menu logs in; then the page is viewed at the width under test.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await logIn(page, 'patient', email);
  await expect(page).toHaveURL(/\/patient\/dashboard$/);
  await page.setViewportSize({ width, height: 900 });
}

for (const width of WIDTHS) {
  test(`at ${width} px the profile card's e-mail wraps only after "@" or a dot, never mid-word`, async ({ page }) => {
    const email = longEmail();
    await signUpAndLogIn(page, email, width);
    const dd = page.getByRole('region', { name: 'Profile summary' }).locator('dd', { hasText: email });
    await expect(dd).toHaveText(email);
    const layout = await dd.evaluate((el) => {
      const range = document.createRange();
      const pieces = [...el.childNodes]
        .filter((c) => c.nodeType === Node.TEXT_NODE)
        .map((c) => {
          range.selectNodeContents(c);
          return { text: c.textContent, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
        });
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      return { pieces, lines, overflows: el.scrollWidth > el.clientWidth };
    });
    // Each piece between break points stays on one line; the card never scrolls sideways.
    expect(layout.pieces.length).toBeGreaterThan(1);
    for (const piece of layout.pieces) expect(piece).toEqual({ text: piece.text, lines: 1 });
    expect(layout.overflows).toBe(false);
    if (width === 390) expect(layout.lines).toBeGreaterThan(1);
  });

  test(`at ${width} px the 2FA QR code shows at its own pixel size`, async ({ page }) => {
    await signUpAndLogIn(page, longEmail(), width);
    await page.goto('/patient/enable2fa');
    await page.getByRole('switch', { name: 'Enable two-factor authentication' }).check();
    const qr = page.getByRole('img', { name: /QR code/ });
    await expect(qr).toBeVisible();
    const size = await qr.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      const box = img.getBoundingClientRect();
      return { natural: [img.naturalWidth, img.naturalHeight], shown: [box.width, box.height] };
    });
    expect(size.natural[0]).toBeGreaterThan(0);
    expect(size.shown).toEqual(size.natural);
    // It fits the phone's screen without a sideways scroll.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
