import { storageContract } from "../../src/testing/storage-contract.js";
import { createMemoryStorage } from "../../src/storage/index.js";

storageContract("memory", createMemoryStorage);
