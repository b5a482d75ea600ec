import { screen } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { App } from "./App.tsx";

describe("room remote", () => {
  it("shows an honest empty state until the room service exists", async () => {
    renderWithKit(<App />);
    expect(await screen.findByRole("heading", { level: 1, name: "Live rooms" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("No rooms are live yet");
  });

  it("speaks Spanish with ?lang=es", async () => {
    renderWithKit(<App />, createTestKit({ search: "?lang=es" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Salas en directo" })).toBeTruthy();
  });
});
