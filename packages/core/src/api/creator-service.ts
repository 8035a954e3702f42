import { defineService } from "./define-service.js";
import * as s from "../schemas/creator.js";
import { ListMyItemsResponse } from "../schemas/economy.js";

export const CreatorService = defineService({
  typeName: "svc.platform.v1.CreatorService",
  localName: "creator",
  summary: "Overview, analytics, sales, uploads, payouts.",
  methods: {
    getOverview: { input: s.CreatorOverviewRequest, output: s.CreatorOverview, auth: "account", summary: "The caller's totals as a creator, with daily visit and revenue series." },
    getExperienceAnalytics: { input: s.ExperienceAnalyticsRequest, output: s.ExperienceAnalytics, auth: "account", summary: "Daily figures of one of the caller's experiences over a window of days." },
    listSales: { input: s.ListSalesRequest, output: s.ListSalesResponse, auth: "account", summary: "Sales of the caller's items, newest first." },
    listMyItems: { input: s.ListMyItemsRequest, output: ListMyItemsResponse, auth: "account", summary: "Items the caller created." },
    listUploads: { input: s.ListUploadsRequest, output: s.ListUploadsResponse, auth: "account", summary: "The caller's uploaded blobs and today's upload allowance." },
    requestPayout: { input: s.RequestPayoutRequest, output: s.Payout, auth: "account", summary: "Cash-out request from earned credits; local builds only record it." },
    listPayouts: { input: s.ListPayoutsRequest, output: s.ListPayoutsResponse, auth: "account", summary: "The caller's payouts, newest first." },
  },
});
