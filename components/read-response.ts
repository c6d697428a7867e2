/**
 * Deprecated alias kept only for components/run (owned by the run-page work, which moves to
 * ./api-client and then deletes this file). New code imports errorText from ./api-client.
 */
export { errorText as errorMessage } from "./api-client";
