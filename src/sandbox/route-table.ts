import { DEFAULT_RATE } from './clean-limits.js';
import { addCleanRoute, type CleanRouteSettings, emptyStats } from './clean-route.js';
import { addCleaningAuthRoutes } from './cleaning-accounts.js';
import { FaultInjector } from './faults.js';
import { addPlatformRoutes } from './platform-routes.js';
import { Router } from './router.js';

/** Every route of both interfaces. `clean` configures the clean route; defaults: spec limits, no faults. */
export function createRouter(clean?: CleanRouteSettings): Router {
  const router = new Router();
  addPlatformRoutes(router);
  addCleaningAuthRoutes(router);
  addCleanRoute(
    router,
    clean ?? { rate: DEFAULT_RATE, allowanceStatus: 403, faults: new FaultInjector(), stats: emptyStats() },
  );
  return router;
}
