import { fireEvent, screen, waitFor } from "@testing-library/react";
import { renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { Avatar } from "./Avatar.tsx";

const ADA = "00000000-0000-4000-8000-000000000001";

describe("Avatar", () => {
  it("shows the image the user wears, named by their name, in the size asked", () => {
    renderWithKit(<Avatar id={ADA} name="Ada" src="/media/owl.png" size="lg" />);
    const image = screen.getByRole("img", { name: "Ada" });
    expect(image.getAttribute("src")).toBe("/media/owl.png");
    expect(image.parentElement?.className).toBe("tt-avatar tt-avatar--lg");
  });

  it("falls back to the default generated from the user's id when the image fails", async () => {
    renderWithKit(<Avatar id={ADA} name="Ada" src="/media/gone.png" />);
    fireEvent.error(screen.getByRole("img", { name: "Ada" }));
    await waitFor(() =>
      expect(screen.getByRole("img", { name: "Ada" }).getAttribute("src")).toMatch(/^data:image\/svg\+xml/),
    );
  });

  it("draws the same default for the same id, and another for another id (nothing fetched)", async () => {
    renderWithKit(
      <>
        <Avatar id={ADA} name="Ada" />
        <Avatar id={ADA} name="Ada again" />
        <Avatar id="00000000-0000-4000-8000-000000000002" name="Bo" />
      </>,
    );
    const src = (name: string) => screen.getByRole("img", { name }).getAttribute("src") ?? "";
    await waitFor(() => expect(src("Bo")).toMatch(/^data:image\/svg\+xml/));
    await waitFor(() => expect(src("Ada")).toMatch(/^data:image\/svg\+xml/));
    expect(src("Ada again")).toBe(src("Ada"));
    expect(src("Bo")).not.toBe(src("Ada"));
  });

  it("is hidden from screen readers when decorative (the name beside it says who)", async () => {
    const { container } = renderWithKit(<Avatar id={ADA} name="Ada" src="/media/owl.png" decorative />);
    expect(screen.queryByRole("img")).toBeNull();
    const wrapper = container.querySelector(".tt-avatar")!;
    expect(wrapper.getAttribute("aria-hidden")).toBe("true");
    expect(wrapper.querySelector("img")?.getAttribute("alt")).toBe("");
  });
});
