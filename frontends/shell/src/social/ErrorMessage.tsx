import { useErrorText } from "@tt/web-kit";

/** A failed call's text as the server wrote it (spec 002 §8). */
export function ErrorMessage({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  return (
    <p className="tt-error" role="alert">
      {text(error)}
    </p>
  );
}
