import { expect, type Page } from '@playwright/test';

let n = 0;
export const uniqueEmail = (who: string) => `${who}-${Date.now()}-${n++}@example.com`;
export const PASSWORD = 'correct horse battery';

export async function openMenu(page: Page, menu: 'Sign In' | 'Create an account', item: 'As Patient' | 'As Doctor') {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(menu) })
    .click();
  await page.getByRole('list', { name: menu }).getByRole('link', { name: item }).click();
}

export async function logIn(page: Page, role: 'patient' | 'doctor', email: string, password = PASSWORD) {
  await openMenu(page, 'Sign In', role === 'patient' ? 'As Patient' : 'As Doctor');
  await expect(page).toHaveURL(new RegExp(`/login/${role}$`));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

export async function logOut(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));
