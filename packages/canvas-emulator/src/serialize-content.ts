/** Canvas API JSON for modules, module items, files and pages (shared/canvas-api.md §5, §6). */
import type { EmuData, EmuFile, EmuModule, EmuModuleItem, EmuPage } from './model.ts';
import type { JsonObject } from './json.ts';

function moduleItemContent(item: EmuModuleItem, data: EmuData) {
  switch (item.type) {
    case 'Assignment':
      return data.assignments.find((a) => a.id === item.content_id);
    case 'Quiz':
      return data.quizzes.find((q) => q.id === item.content_id);
    case 'Discussion': {
      const t = data.topics.find((x) => x.id === item.content_id);
      const a = t?.assignment_id ? data.assignments.find((x) => x.id === t.assignment_id) : undefined;
      return a ?? (t ? { due_at: t.todo_date, points_possible: null } : undefined);
    }
    default:
      return undefined;
  }
}

export function moduleItemJson(
  item: EmuModuleItem,
  courseId: number,
  origin: string,
  data: EmuData,
  contentDetails: boolean,
): JsonObject {
  const api = `${origin}/api/v1/courses/${courseId}`;
  const json: JsonObject = {
    id: item.id,
    title: item.title,
    position: item.position,
    indent: item.indent,
    quiz_lti: false,
    type: item.type,
    module_id: item.module_id,
  };
  if (item.type !== 'SubHeader') {
    json.html_url =
      item.type === 'ExternalUrl'
        ? `${api}/module_item_redirect/${item.id}`
        : `${origin}/courses/${courseId}/modules/items/${item.id}`;
  }
  if (!['Page', 'SubHeader', 'ExternalUrl'].includes(item.type)) json.content_id = item.content_id;
  if (item.type === 'Page') {
    json.page_url = item.page_url;
    json.url = `${api}/pages/${item.page_url}`;
  }
  const paths: Partial<Record<EmuModuleItem['type'], string>> = {
    Assignment: 'assignments',
    Quiz: 'quizzes',
    Discussion: 'discussion_topics',
    File: 'files',
  };
  const p = paths[item.type];
  if (p) json.url = `${api}/${p}/${item.content_id}`;
  if (item.type === 'ExternalUrl') {
    json.external_url = item.external_url;
    json.new_tab = true;
  }
  if (item.completion_requirement) json.completion_requirement = item.completion_requirement;
  if (contentDetails) {
    const details: JsonObject = {};
    const content = moduleItemContent(item, data);
    // Canvas copies only truthy values into content_details.
    if (content?.points_possible) details.points_possible = content.points_possible;
    if (content?.due_at) details.due_at = content.due_at;
    if (item.type === 'File') {
      const f = data.files.find((x) => x.id === item.content_id);
      if (f) details.display_name = f.display_name;
      details.thumbnail_url = null;
    }
    details.locked_for_user = false;
    json.content_details = details;
  }
  return json;
}

export function moduleJson(m: EmuModule, origin: string, data: EmuData, include: Set<string>): JsonObject {
  const json: JsonObject = {
    id: m.id,
    name: m.name,
    position: m.position,
    unlock_at: m.unlock_at,
    require_sequential_progress: false,
    requirement_type: 'all',
    publish_final_grade: false,
    prerequisite_module_ids: [],
    state: 'started',
    completed_at: null,
    items_count: m.items.length,
    items_url: `${origin}/api/v1/courses/${m.course_id}/modules/${m.id}/items`,
  };
  // Canvas omits items when a module has more than 100 of them; the client must use items_url.
  if (include.has('items') && m.items.length <= 100) {
    json.items = m.items.map((i) => moduleItemJson(i, m.course_id, origin, data, include.has('content_details')));
  }
  return json;
}

export function fileJson(f: EmuFile, origin: string): JsonObject {
  const url = `${origin}/files/${f.id}/download?download_frd=1&verifier=${f.uuid}`;
  return {
    id: f.id,
    uuid: f.uuid,
    folder_id: f.folder_id,
    display_name: f.display_name,
    filename: f.filename,
    upload_status: 'success',
    'content-type': f.content_type,
    url: f.locked ? '' : url,
    size: f.content.length,
    created_at: f.created_at,
    updated_at: f.updated_at,
    unlock_at: null,
    locked: f.locked,
    hidden: false,
    lock_at: null,
    hidden_for_user: false,
    thumbnail_url: null,
    modified_at: f.updated_at,
    mime_class: f.content_type === 'application/pdf' ? 'pdf' : f.content_type.startsWith('text/') ? 'text' : 'file',
    media_entry_id: null,
    category: 'uncategorized',
    locked_for_user: f.locked,
    visibility_level: 'inherit',
  };
}

export function pageJson(p: EmuPage, origin: string, withBody: boolean): JsonObject {
  return {
    title: p.title,
    created_at: p.created_at,
    url: p.url,
    editing_roles: 'teachers',
    page_id: p.page_id,
    last_edited_by: null,
    published: true,
    hide_from_students: false,
    front_page: false,
    html_url: `${origin}/courses/${p.course_id}/pages/${p.url}`,
    todo_date: null,
    publish_at: null,
    updated_at: p.updated_at,
    locked_for_user: false,
    ...(withBody ? { body: p.body } : {}),
  };
}
