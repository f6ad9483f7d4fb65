import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { Email, ENDPOINTS, type GoogleSignInError } from '@careloop/shared-contracts';
import type { AppDeps } from '../../../deps';
import type { Db } from '../../../adapters/db';
import { oidcLogins, patients } from '../../../db/schema';
import { route } from '../../../http/route';
import { hashPassword } from '../../../lib/password';
import { hashToken } from '../../../lib/tokens';
import { issueHandoffCode } from '../handoff/codes';
import { NOTICES, sendNotice } from '../notices';
import { removeStoredFiles, takeOver } from '../takeover';
import { openLoginWindow } from '../two-factor/store';

// Google sign-in for patients: OpenID Connect authorization code flow with PKCE (S256), state and
// nonce (openid-client validates the ID token: signature, issuer, audience, expiry, nonce).
// The state, nonce and PKCE verifier wait in the database (10 minutes, single use) so any replica
// can finish a flow; a cookie holding the state ties the callback to the browser that started it
// (no login CSRF: nobody can make a victim's browser finish a flow the attacker started).

export const OIDC_LOGIN_TTL_MS = 10 * 60_000;
export const STATE_COOKIE = 'careloop_oidc_state';
const COOKIE_PATH = '/patient/auth/google';
const CALLBACK_PATH = ENDPOINTS.patientGoogleCallback.path;

function isLocalHost(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** The patient a Google sign-in resolves to. */
interface GoogleAccount {
  id: string;
  twoFactorEnabled: boolean;
  /** set when this sign-in took an unverified account over: the files to remove, the address to tell */
  takenOver?: { storageKeys: string[]; email: string };
}

/**
 * The patient for a verified Google e-mail (issue 11, "until verified"):
 * - none yet: created with profileComplete false and the e-mail verified (Google proved it);
 * - one whose e-mail is verified: that patient signs in;
 * - one whose e-mail nobody proved (a password signup): taken over, never linked as it is — see
 *   takeOverByGoogle(). Whoever signed up with that address may not be its owner (account pre-hijack).
 */
async function resolvePatient(
  db: Db,
  args: { email: string; name: string; now: Date; ip: string; cost: number },
): Promise<GoogleAccount> {
  const select = () =>
    db
      .select({ id: patients.id, twoFactorEnabled: patients.twoFactorEnabled, emailVerifiedAt: patients.emailVerifiedAt })
      .from(patients)
      .where(eq(patients.email, args.email))
      .limit(1);
  let [existing] = await select();
  if (!existing) {
    // A random password nobody knows, hashed like any other: the account signs in through Google
    // (or after "forgot password"), and login timing does not single it out.
    const passwordHash = await unusablePasswordHash(args.cost);
    await db
      .insert(patients)
      .values({ name: args.name, email: args.email, passwordHash, profileComplete: false, emailVerifiedAt: args.now })
      .onConflictDoNothing();
    [existing] = await select(); // also right when a parallel request created it first
  }
  if (existing.emailVerifiedAt) return existing;
  return takeOverByGoogle(db, existing.id, args);
}

/** A hash of a random secret that nobody is ever told: no password opens the account. */
const unusablePasswordHash = (cost: number) => hashPassword(randomBytes(32).toString('base64url'), cost);

/**
 * Google proved the e-mail of an unverified password account: the owner of the address takes it
 * over (modules/account/takeover), in one transaction. Every credential and every bit of data the account
 * had came from whoever signed up, who may be an attacker holding it ready for the owner: the
 * password is replaced by an unusable one and everything they set is wiped. The owner sets a
 * password through "forgot password" if they want one.
 */
async function takeOverByGoogle(
  db: Db,
  patientId: string,
  args: { now: Date; ip: string; cost: number; name: string },
): Promise<GoogleAccount> {
  const { now, ip } = args;
  const passwordHash = await unusablePasswordHash(args.cost); // scrypt outside the transaction
  return db.transaction(async (tx) => {
    const taken = await takeOver(tx, { role: 'patient', accountId: patientId, passwordHash, now, ip, name: args.name });
    if (taken) return { id: patientId, twoFactorEnabled: false, takenOver: taken };
    // A parallel sign-in took it over already: that one wins.
    const [row] = await tx
      .select({ id: patients.id, twoFactorEnabled: patients.twoFactorEnabled })
      .from(patients)
      .where(eq(patients.id, patientId));
    return row;
  });
}

export function googleRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  const { issuerUrl, clientId, clientSecret } = config.google;
  const redirectUri = `${config.apiPublicUrl}${CALLBACK_PATH}`;
  const secureCookie = config.apiPublicUrl.startsWith('https:');
  const loginPage = `${config.webOrigin}/login/patient`;
  const fail = (error: GoogleSignInError) => `${loginPage}?error=${error}`;

  // Discovery happens on first use and is cached; a failure is not cached, so the next try redoes it.
  let discovered: Promise<oidc.Configuration> | undefined;
  function configuration(): Promise<oidc.Configuration> {
    if (!discovered) {
      const issuer = new URL(issuerUrl);
      discovered = oidc
        .discovery(issuer, clientId!, clientSecret, undefined, {
          // http:// issuers are refused except a mock on this machine (tests, local development).
          execute: issuer.protocol === 'http:' && isLocalHost(issuer) ? [oidc.allowInsecureRequests] : [],
          timeout: 10,
        })
        .catch((err) => {
          discovered = undefined;
          throw err;
        });
    }
    return discovered;
  }

  const cookie = (value: string, maxAgeS: number) =>
    `${STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}`;

  return async (app) => {
    route(app, deps, ENDPOINTS.patientGoogleSignIn, async (request, reply) => {
      if (!clientId) return reply.redirect(fail('google_unavailable'));
      try {
        const cfg = await configuration();
        const now = clock.now();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        const codeVerifier = oidc.randomPKCECodeVerifier();
        await db.db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, now));
        await db.db.insert(oidcLogins).values({
          stateHash: hashToken(state),
          nonce,
          codeVerifier,
          createdAt: now,
          expiresAt: new Date(now.getTime() + OIDC_LOGIN_TTL_MS),
        });
        const url = oidc.buildAuthorizationUrl(cfg, {
          redirect_uri: redirectUri,
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        reply.header('set-cookie', cookie(state, OIDC_LOGIN_TTL_MS / 1000));
        reply.header('cache-control', 'no-store');
        return reply.redirect(url.href);
      } catch (err) {
        request.log.warn({ err }, 'google sign-in could not start');
        return reply.redirect(fail('google_failed'));
      }
    });

    route(app, deps, ENDPOINTS.patientGoogleCallback, async (request, reply) => {
      if (!clientId) return reply.redirect(fail('google_unavailable'));
      reply.header('set-cookie', cookie('', 0)); // the flow ends here, whatever happens
      reply.header('cache-control', 'no-store');
      try {
        const query = request.query as Record<string, unknown>;
        const state = typeof query.state === 'string' ? query.state : undefined;
        if (!state || readCookie(request.headers.cookie, STATE_COOKIE) !== state) {
          request.log.warn('google sign-in: state missing or not from this browser');
          return reply.redirect(fail('google_failed'));
        }
        const now = clock.now();
        // Taken and deleted in one statement: a state is used once.
        const [login] = await db.db
          .delete(oidcLogins)
          .where(and(eq(oidcLogins.stateHash, hashToken(state)), gt(oidcLogins.expiresAt, now)))
          .returning();
        if (!login) return reply.redirect(fail('google_failed'));

        const cfg = await configuration();
        const currentUrl = new URL(redirectUri);
        currentUrl.search = new URL(request.url, 'http://placeholder').search;
        const tokens = await oidc.authorizationCodeGrant(cfg, currentUrl, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        const email = Email.safeParse(claims?.email);
        if (!claims || !email.success) return reply.redirect(fail('google_failed'));
        if (claims.email_verified !== true) return reply.redirect(fail('google_unverified'));

        const claimedName = typeof claims.name === 'string' ? claims.name.trim().slice(0, 200) : '';
        const name = claimedName || email.data.split('@')[0];
        const patient = await resolvePatient(db.db, {
          email: email.data,
          name,
          now,
          ip: request.ip,
          cost: config.passwordHashCost,
        });
        if (patient.takenOver) {
          removeStoredFiles(deps, app.backgroundTasks, patient.takenOver.storageKeys);
          const notice = NOTICES.takenOver({ webOrigin: config.webOrigin, role: 'patient' });
          sendNotice(deps, app.backgroundTasks, patient.takenOver.email, notice);
        }
        if (patient.twoFactorEnabled) {
          // Google proves the e-mail, not the second factor: the code step is still required.
          await openLoginWindow(db.db, 'patient', patient.id, now);
          return reply.redirect(`${loginPage}?twoFactorRequired=true&patientId=${patient.id}&role=patient`);
        }
        // Not a session: a one-time code the web app exchanges (POST /patient/auth/exchange) within
        // 60 s. SPEC §7's ?token= name is kept; a bearer token never goes into a URL.
        const code = await issueHandoffCode(db.db, 'patient', patient.id, now);
        return reply.redirect(`${loginPage}?token=${encodeURIComponent(code)}&role=patient`);
      } catch (err) {
        request.log.warn({ err }, 'google sign-in failed');
        return reply.redirect(fail('google_failed'));
      }
    });
  };
}
