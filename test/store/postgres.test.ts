// Needs PostgreSQL at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); fails,
// never skips, when it is not reachable.
import { registerDatabaseSuite } from "./database.suite.js";
import {
  registerStoreStartupSuite,
  registerTransferRepositorySuite,
} from "./transfer-repository.suite.js";

registerTransferRepositorySuite("postgres");
registerStoreStartupSuite("postgres");
registerDatabaseSuite("postgres");
