/** A form-level error, announced to screen readers as soon as it appears. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="tt-error" role="alert">
      {message}
    </p>
  );
}
