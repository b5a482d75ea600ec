// Every message of tt/user/v1/events.proto is a well-declared event: its subject is tt.user.<entity>.<verb>, in
// the user service's stream, named once, and its aggregate is a string field. publishEvent would refuse it at the
// first publish otherwise; this catches it before any publisher runs.
import { eventDeclaration, subjectMatches } from "@tt/kit";
import { file_tt_user_v1_events } from "@tt/proto/tt/user/v1/events_pb";
import { describe, expect, it } from "vitest";
import { USER_EVENTS_STREAM, USER_EVENTS_SUBJECTS } from "./events.ts";

describe("tt.user.v1 events", () => {
  const messages = file_tt_user_v1_events.messages;

  it("declares the subjects the user service published as JSON before, once each", () => {
    const subjects = messages.map((m) => eventDeclaration(m).subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(subjects.sort()).toEqual(
      [
        "tt.user.profile.updated",
        "tt.user.provider-link.created",
        "tt.user.provider-link.deleted",
        "tt.user.roles.changed",
        "tt.user.user.banned",
        "tt.user.user.created",
        "tt.user.user.deleted",
        "tt.user.user.kicked",
        "tt.user.user.reactivated",
        "tt.user.user.unbanned",
        "tt.user.user.updated",
        "tt.user.voucher.redeemed",
      ].sort(),
    );
  });

  it.each(messages.map((m) => [m.typeName, m] as const))("%s is stored in the user service's stream", (_, m) => {
    const declaration = eventDeclaration(m);
    expect(declaration.stream).toBe(USER_EVENTS_STREAM);
    expect(USER_EVENTS_SUBJECTS.some((s) => subjectMatches(s, declaration.subject))).toBe(true);
  });
});
