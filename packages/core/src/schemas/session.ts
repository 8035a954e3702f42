// Schemas of the session service: filled in with the service's descriptor.
export {};
