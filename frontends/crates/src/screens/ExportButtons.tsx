/** Export a crate to Spotify or Apple Music (filled in when the providers' calls land). */
export function ExportButtons(_props: { crateUuid: string }) {
  return null;
}
