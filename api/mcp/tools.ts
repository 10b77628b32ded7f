/**
 * Every MCP tool, in the order tools/list names them. Each is declared with `tool()` (tool.ts)
 * in the file of its area and calls the same command or query as the REST route of its operation.
 */
import { checkUsernameTool, createPageTool, getClaimLinkTool, getMeTool, validatePageTool } from './agentTools.js';
import { attachDomainTool, detachDomainTool, getDomainTool } from './domainTools.js';
import { importLinksTool, importProfileTool, uploadImageTool } from './importTools.js';
import { changeMemberTool, inviteMemberTool, listMembersTool, removeMemberTool } from './memberTools.js';
import {
  deletePageTool,
  getPageTool,
  getStatsTool,
  getVersionTool,
  listPagesTool,
  listVersionsTool,
  restoreVersionTool,
  undoChangesTool,
  updatePageTool,
} from './pageTools.js';
import {
  approveProposalTool,
  declineProposalTool,
  getProposalTool,
  listProposalsTool,
  proposeChangeTool,
} from './proposalTools.js';
import type { AnyTool } from './tool.js';

export const TOOLS: readonly AnyTool[] = [
  checkUsernameTool,
  createPageTool,
  validatePageTool,
  getMeTool,
  listPagesTool,
  getPageTool,
  updatePageTool,
  deletePageTool,
  listVersionsTool,
  getVersionTool,
  restoreVersionTool,
  undoChangesTool,
  proposeChangeTool,
  listProposalsTool,
  getProposalTool,
  approveProposalTool,
  declineProposalTool,
  listMembersTool,
  inviteMemberTool,
  changeMemberTool,
  removeMemberTool,
  getStatsTool,
  getDomainTool,
  attachDomainTool,
  detachDomainTool,
  getClaimLinkTool,
  uploadImageTool,
  importLinksTool,
  importProfileTool,
];
