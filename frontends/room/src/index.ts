// The async boundary lets federation negotiate the shared singletons before any of them is evaluated.
import("./bootstrap.tsx");
