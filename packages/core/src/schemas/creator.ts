// Schemas of the creator service: filled in with the service's descriptor.
export {};
