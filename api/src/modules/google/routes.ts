import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { Email, ENDPOINTS, type GoogleSignInError } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import type { Queryable } from '../../adapters/db';
import { oidcLogins, patients } from '../../db/schema';
import { route } from '../../http/route';
import { hashPassword } from '../../lib/password';
import { hashToken } from '../../lib/tokens';
import { createSession } from '../auth/sessions';
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

/** The patient for a verified Google e-mail: found by e-mail, or created with profileComplete false. */
async function findOrCreatePatient(db: Queryable, email: string, name: string, cost: number) {
  const select = () =>
    db
      .select({ id: patients.id, twoFactorEnabled: patients.twoFactorEnabled })
      .from(patients)
      .where(eq(patients.email, email))
      .limit(1);
  const [existing] = await select();
  if (existing) return existing;
  // A random password nobody knows, hashed like any other: the account signs in through Google
  // (or after "forgot password"), and login timing does not single it out.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'), cost);
  await db.insert(patients).values({ name, email, passwordHash, profileComplete: false }).onConflictDoNothing();
  const [row] = await select(); // also right when a parallel callback created it first
  return row;
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
        const patient = await findOrCreatePatient(db.db, email.data, name, config.passwordHashCost);
        if (patient.twoFactorEnabled) {
          // Google proves the e-mail, not the second factor: the code step is still required.
          await openLoginWindow(db.db, 'patient', patient.id, now);
          return reply.redirect(`${loginPage}?twoFactorRequired=true&patientId=${patient.id}&role=patient`);
        }
        const token = await createSession(db.db, 'patient', patient.id, now, config.sessionTtlHours);
        return reply.redirect(`${loginPage}?token=${encodeURIComponent(token)}&role=patient`);
      } catch (err) {
        request.log.warn({ err }, 'google sign-in failed');
        return reply.redirect(fail('google_failed'));
      }
    });
  };
}
