import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PageHead } from "./PageHead.tsx";

describe("PageHead", () => {
  it("titles a page (h1) with its intro, and puts what it offers beside them", () => {
    render(
      <PageHead titleId="shop-title" title="Shop" intro="Spend your tokens." introClassName="tt-shop-intro">
        <button type="button">Balance</button>
      </PageHead>,
    );
    const title = screen.getByRole("heading", { level: 1, name: "Shop" });
    expect(title.id).toBe("shop-title");
    expect(title.className).toBe("tt-page-title");
    expect(screen.getByText("Spend your tokens.").className).toBe("tt-muted tt-page-head__intro tt-shop-intro");
    expect(title.closest("header")?.className).toBe("tt-page-head");
    expect(screen.getByRole("button", { name: "Balance" }).parentElement?.className).toBe("tt-page-head");
  });

  it("titles a section (h2) without an intro", () => {
    render(<PageHead level={2} title="Live now" titleClassName="tt-live-now__title" className="tt-x" />);
    const title = screen.getByRole("heading", { level: 2, name: "Live now" });
    expect(title.className).toBe("tt-section-title tt-live-now__title");
    expect(title.closest("header")?.className).toBe("tt-page-head tt-x");
    expect(title.closest("header")?.querySelector("p")).toBeNull();
  });
});
