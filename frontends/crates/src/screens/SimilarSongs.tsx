/** Similar-song suggestions for a crate (filled in when the providers' calls land). */
export function SimilarSongs(_props: { crateUuid: string }) {
  return null;
}
