import { addCleaningAuthRoutes } from './cleaning-routes.js';
import { addPlatformRoutes } from './platform-routes.js';
import { Router } from './router.js';

/** Every route of both interfaces; new routes (such as the clean route) register here. */
export function createRouter(): Router {
  const router = new Router();
  addPlatformRoutes(router);
  addCleaningAuthRoutes(router);
  return router;
}
