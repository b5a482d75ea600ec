import { Code, ConnectError } from "@connectrpc/connect";
import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { config } from "zod";
import { describe, expect, it } from "vitest";
import { FormError, serverFieldOf, TextField, useServerErrors, useZodForm, z } from "./index.ts";

describe("@tt/web-kit/form", () => {
  it("makes zod parse without eval, which the pages' CSP refuses (and reports even when zod catches it)", () => {
    expect(config().jitless).toBe(true);
  });

  it("finds the field a server's message names first", () => {
    expect(serverFieldOf("nickname must be at most 32 characters", ["email", "nickname"])).toBe("nickname");
    expect(serverFieldOf("profile.nickname must not be empty", ["nickname"])).toBe("nickname");
    // As shown: the first letter capitalised.
    expect(serverFieldOf("Nickname must be at most 32 characters", ["email", "nickname"])).toBe("nickname");
    expect(serverFieldOf("incorrect email or password", ["email", "password"])).toBeUndefined();
  });

  function SignUp({ failure }: { failure: unknown }) {
    const form = useZodForm(z.object({ email: z.string().min(1, "Enter your e-mail."), nickname: z.string() }), {
      defaultValues: { email: "", nickname: "" },
    });
    const { formError, fail } = useServerErrors(form);
    return (
      <form noValidate onSubmit={(event) => void form.handleSubmit(() => fail(failure))(event)}>
        <TextField form={form} name="email" label="E-mail" />
        <TextField form={form} name="nickname" label="Nickname" />
        <FormError message={formError} />
        <button type="submit">Create account</button>
      </form>
    );
  }

  it("shows the schema's message beside its field, and never calls the server for it", async () => {
    const user = userEvent.setup();
    renderWithKit(<SignUp failure={new Error("not reached")} />);
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Enter your e-mail.");
    expect(screen.getByLabelText("E-mail").getAttribute("aria-invalid")).toBe("true");
  });

  it("puts the server's message on the field it names, else above the form", async () => {
    const user = userEvent.setup();
    const { unmount } = renderWithKit(
      <SignUp failure={new ConnectError("nickname must be at most 32 characters", Code.InvalidArgument)} />,
    );
    await user.type(screen.getByLabelText("E-mail"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Nickname must be at most 32 characters");
    expect(screen.getByLabelText("Nickname").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(screen.getByLabelText("Nickname"));
    unmount();

    renderWithKit(<SignUp failure={new ConnectError("this email is already registered", Code.PermissionDenied)} />);
    await user.type(screen.getByLabelText("E-mail"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This email is already registered");
    expect(screen.getByLabelText("Nickname").hasAttribute("aria-invalid")).toBe(false);
  });
});
