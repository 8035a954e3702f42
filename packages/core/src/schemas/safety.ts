// Schemas of the safety service: filled in with the service's descriptor.
export {};
