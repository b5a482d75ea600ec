// Stored provider tokens: encrypted writes, decrypted reads, and refreshing under a row lock. The lock
// matters because SoundCloud and Spotify rotate refresh tokens: two concurrent refreshes with the same
// refresh token would make the second one fail and drop a perfectly good link.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { LockMode, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { INTERNAL_ERROR_MESSAGE } from "@tt/kit";
import { ProviderTokenSchema as ProviderTokenMessageSchema } from "@tt/proto/tt/user/v1/provider_token_pb";
import type { ProviderToken as ProviderTokenMessage } from "@tt/proto/tt/user/v1/provider_token_pb";
import { ProviderError, type OAuthTokens } from "../../providers/index.ts";
import { User } from "../users/user.entity.ts";
import { toConnectProviderError } from "@tt/providers";
import { ProviderToken } from "./provider-token.entity.ts";
import type { TokenCipher } from "./token-cipher.ts";

export type LinkedProvider = "apple" | "soundcloud" | "spotify" | "youtube";
export type ProviderVariant = "web" | "mobile";

export interface ProviderRef {
  userId: string;
  provider: LinkedProvider;
  variant?: ProviderVariant;
}

/** An access token this close to expiry is refreshed first, so the caller can still use it. */
const EXPIRY_MARGIN_MS = 60_000;

export const LABELS: Record<LinkedProvider, string> = {
  apple: "Apple Music",
  soundcloud: "SoundCloud",
  spotify: "Spotify",
  youtube: "YouTube",
};

export function notLinked(provider: LinkedProvider): ConnectError {
  return new ConnectError(`no ${LABELS[provider]} account is linked`, Code.NotFound);
}

export function linkDropped(provider: LinkedProvider, cause?: unknown): ConnectError {
  return new ConnectError(
    `${LABELS[provider]} refused the stored refresh token: connect again`,
    Code.Unauthenticated,
    undefined,
    undefined,
    cause,
  );
}

export interface LinkDetails {
  providerUserId?: string | undefined;
  providerDisplayName?: string | undefined;
  product?: string | undefined;
  providerEmail?: string | undefined;
}

/**
 * Flushes a link write. Two first links of the same account racing each other meet the unique index: the
 * loser is told to retry (Aborted), which then finds and replaces the winner's row.
 */
export async function flushLink(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new ConnectError("the link changed concurrently; try again", Code.Aborted, undefined, undefined, error);
    }
    throw error;
  }
}

export interface ProviderTokenStore {
  find(em: EntityManager, ref: ProviderRef): Promise<ProviderToken | null>;
  /**
   * Creates or replaces the user's link (persisted with the caller's flush). A refresh token absent from
   * `tokens` keeps the stored one, as OAuth2 providers omit it when they do not rotate.
   */
  save(em: EntityManager, ref: ProviderRef, tokens: TokensToStore, details?: LinkDetails): Promise<ProviderToken>;
  /** The row with a usable access token: refreshed first when expired (or always with `force`). */
  fresh(
    em: EntityManager,
    ref: ProviderRef,
    refresh: (refreshToken: string) => Promise<OAuthTokens>,
    options?: { force?: boolean },
  ): Promise<ProviderToken>;
  toMessage(row: ProviderToken): Promise<ProviderTokenMessage>;
}

/** OAuth2 tokens, or a token with no known lifetime (Apple Music User Tokens). */
export type TokensToStore = Omit<OAuthTokens, "expiresIn"> & { expiresIn?: number };

const contextOf = (row: { user: { id: string }; provider: string; variant: string }, field: string) =>
  `${row.user.id}/${row.provider}/${row.variant}/${field}`;

export function createProviderTokenStore(cipher: () => Promise<TokenCipher>): ProviderTokenStore {
  function apply(c: TokenCipher, row: ProviderToken, tokens: TokensToStore, details: LinkDetails = {}): void {
    row.accessTokenEnc = c.encrypt(tokens.accessToken, contextOf(row, "access"));
    if (tokens.refreshToken !== undefined)
      row.refreshTokenEnc = c.encrypt(tokens.refreshToken, contextOf(row, "refresh"));
    row.expiresAt = tokens.expiresIn === undefined ? null : new Date(Date.now() + tokens.expiresIn * 1000);
    if (tokens.scope !== undefined) row.scope = tokens.scope;
    if (details.providerUserId !== undefined) row.providerUserId = details.providerUserId;
    if (details.providerDisplayName !== undefined) row.providerDisplayName = details.providerDisplayName;
    if (details.product !== undefined) row.product = details.product;
    if (details.providerEmail !== undefined) row.providerEmail = details.providerEmail;
  }

  const find = (em: EntityManager, ref: ProviderRef) =>
    em.findOne(ProviderToken, { user: ref.userId, provider: ref.provider, variant: ref.variant ?? "web" });

  return {
    find,
    async save(em, ref, tokens, details) {
      const c = await cipher();
      let row = await find(em, ref);
      if (!row) {
        row = em.create(ProviderToken, {
          user: em.getReference(User, ref.userId),
          provider: ref.provider,
          variant: ref.variant ?? "web",
          accessTokenEnc: "",
          refreshTokenEnc: null,
          expiresAt: null,
          scope: "",
          providerUserId: null,
          providerDisplayName: null,
          product: null,
          providerEmail: null,
        });
      }
      apply(c, row, tokens, details);
      return row;
    },
    async fresh(em, ref, refresh, options = {}) {
      const c = await cipher();
      const outcome = await em.transactional(async (tx) => {
        const row = await tx.findOne(
          ProviderToken,
          { user: ref.userId, provider: ref.provider, variant: ref.variant ?? "web" },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (!row) return { error: notLinked(ref.provider) };
        const valid = row.expiresAt == null || row.expiresAt.getTime() > Date.now() + EXPIRY_MARGIN_MS;
        if (valid && options.force !== true) return { row };
        if (row.refreshTokenEnc == null) {
          tx.remove(row);
          return { error: linkDropped(ref.provider) };
        }
        const refreshToken = open(c, row.refreshTokenEnc, contextOf(row, "refresh"));
        let tokens: OAuthTokens;
        try {
          tokens = await refresh(refreshToken);
        } catch (error) {
          if (!droppable(error))
            return {
              error: toConnectProviderError(error, LABELS[ref.provider], { refusal: unavailableRefusal(ref.provider) }),
            };
          tx.remove(row);
          return { error: linkDropped(ref.provider, error) };
        }
        apply(c, row, tokens);
        return { row };
      });
      if ("error" in outcome) throw outcome.error;
      return outcome.row;
    },
    async toMessage(row) {
      const c = await cipher();
      return create(ProviderTokenMessageSchema, {
        provider: row.provider,
        accessToken: open(c, row.accessTokenEnc, contextOf(row, "access")),
        ...(row.expiresAt ? { expiresAt: timestampFromDate(row.expiresAt) } : {}),
        scope: row.scope,
        providerUserId: row.providerUserId ?? "",
        providerDisplayName: row.providerDisplayName ?? "",
        product: row.product ?? "",
      });
    },
  };
}

/** Decrypts, or fails the call as a server fault whose cause (logged, never answered) names the likely reason. */
function open(c: TokenCipher, sealed: string, context: string): string {
  try {
    return c.decrypt(sealed, context);
  } catch (error) {
    const cause = new Error("a stored provider token does not decrypt: was PROVIDER_TOKEN_KEY changed?", {
      cause: error,
    });
    throw new ConnectError(INTERNAL_ERROR_MESSAGE, Code.Internal, undefined, undefined, cause);
  }
}

/**
 * A refusal that means "this grant is dead" (invalid_grant and the like): drop the link so the client
 * connects again. Not when our own client credentials are refused, nor on rate limiting: every link
 * would be dropped for a problem of ours or a busy minute.
 */
function droppable(error: unknown): boolean {
  return (
    error instanceof ProviderError &&
    error.kind === "rejected" &&
    error.status !== 429 &&
    error.reason !== "invalid_client" &&
    error.reason !== "unauthorized_client"
  );
}

function unavailableRefusal(provider: LinkedProvider) {
  return { message: `${LABELS[provider]} is not available`, code: Code.Unavailable };
}
