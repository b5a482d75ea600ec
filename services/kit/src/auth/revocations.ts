// Contract of session revocation: logout, ban, deactivation and password change revoke sessions, and every
// service refuses their tokens from then on. The kit implements it over a bus key-value bucket.

export interface SessionRevocations {
  /** Refuses the session's tokens everywhere: at once in this process, over the bus in the others. */
  revoke(sessionId: string, expiresAt: Date): Promise<void>;
  /** True once the session has been revoked (until its tokens would have expired anyway). */
  isRevoked(sessionId: string): boolean;
}
