/**
 * Deprecated alias kept only for components/run (owned by the run-page work, which moves to
 * ../api-client and then deletes this file). New code imports api from ../api-client.
 */
export { api } from "../api-client";
