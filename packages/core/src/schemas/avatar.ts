// Schemas of the avatar service: filled in with the service's descriptor.
export {};
