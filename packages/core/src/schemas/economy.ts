// Schemas of the economy service: filled in with the service's descriptor.
export {};
