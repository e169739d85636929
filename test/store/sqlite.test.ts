import {
  registerStoreStartupSuite,
  registerTransferRepositorySuite,
} from "./transfer-repository.suite.js";

registerTransferRepositorySuite("sqlite");
registerStoreStartupSuite("sqlite");
