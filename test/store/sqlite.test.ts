import { registerTransferRepositorySuite } from "./transfer-repository.suite.js";

registerTransferRepositorySuite("sqlite");
