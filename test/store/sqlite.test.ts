import { registerDatabaseSuite } from "./database.suite.js";
import {
  registerStoreStartupSuite,
  registerTransferRepositorySuite,
} from "./transfer-repository.suite.js";

registerTransferRepositorySuite("sqlite");
registerStoreStartupSuite("sqlite");
registerDatabaseSuite("sqlite");
