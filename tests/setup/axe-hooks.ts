// A setup file of the backend projects (vitest.config.ts): runs again for each test file, so the browser journeys'
// accessibility checks are reported by each file's own hooks (support/axe.ts, reportChecksOfThisFile).
import { reportChecksOfThisFile } from "../e2e/support/axe.ts";

reportChecksOfThisFile();
