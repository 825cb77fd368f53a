// Hand-written requests over the fixture servers' real tools (written for this check, not taken
// from any benchmark): a guard that ranking changes which help the public sets do not hurt plain,
// short requests. Floors sit a little under the measured values (R@1 0.713, MRR@10 0.788 at the
// time of writing; the engine before the speed/quality pass scored 0.700 / 0.783).
import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../src/search/index.js';
import { fixtureTools } from './fixtures.js';

const tools = fixtureTools();

const CASES: Array<[string, string[]]> = [
  ['show me what is inside the config.json file', ['filesystem_read_file', 'filesystem_read_text_file']],
  ['save these notes to a new file on disk', ['filesystem_write_file']],
  ['rename report.txt to final-report.txt', ['filesystem_move_file']],
  ['make a new folder called archive', ['filesystem_create_directory']],
  ['which folders am I allowed to access', ['filesystem_list_allowed_directories']],
  ['how big is this file and when was it modified', ['filesystem_get_file_info']],
  ['show the whole folder structure as a tree', ['filesystem_directory_tree']],
  ['find all markdown files under docs', ['filesystem_search_files']],
  ['open a bug report on my github project', ['github_create_issue']],
  ['comment on issue 42', ['github_add_issue_comment']],
  ['who has committed recently to the repo', ['github_list_commits']],
  ['open a PR from my feature branch', ['github_create_pull_request']],
  ['copy someone else\'s repository into my account', ['github_fork_repository', 'gitlab_fork_repository']],
  ['look for code that uses useEffect across github', ['github_search_code']],
  ['search the web for the latest rust release notes', ['brave-search_brave_web_search']],
  ['find coffee shops near me', ['brave-search_brave_local_search', 'google-maps_maps_search_places']],
  ['how long does it take to drive from Paris to Lyon', ['google-maps_maps_directions', 'google-maps_maps_distance_matrix']],
  ['what are the coordinates of the Eiffel Tower', ['google-maps_maps_geocode']],
  ['what address is at 48.85, 2.35', ['google-maps_maps_reverse_geocode']],
  ['how high above sea level is Denver', ['google-maps_maps_elevation']],
  ['draw a picture of a cat wearing a hat', ['everart_generate_image']],
  ['post hello to the team channel in slack', ['slack_slack_post_message']],
  ['react with a thumbs up emoji to that message', ['slack_slack_add_reaction']],
  ['what channels exist in our workspace', ['slack_slack_list_channels']],
  ['show the recent messages in #general', ['slack_slack_get_channel_history']],
  ['go to example.com in the browser', ['puppeteer_puppeteer_navigate']],
  ['capture an image of the current web page', ['puppeteer_puppeteer_screenshot']],
  ['type my email into the login form', ['puppeteer_puppeteer_fill']],
  ['run some javascript in the page', ['puppeteer_puppeteer_evaluate']],
  ['run a SQL select on the users table', ['postgres_query']],
  ['store the value 5 under key counter', ['redis_set']],
  ['what value is stored for key session', ['redis_get']],
  ['forget the entity called Alice', ['memory_delete_entities']],
  ['remember that Bob works at Acme', ['memory_add_observations', 'memory_create_entities']],
  ['show me the whole knowledge graph', ['memory_read_graph']],
  ['think through this problem step by step', ['sequential-thinking_sequentialthinking']],
  ['search my google drive for the budget spreadsheet', ['gdrive_search']],
  ['add two numbers together', ['everything_get-sum']],
  ['repeat back what I say', ['everything_echo']],
  ['look up documents in the AWS knowledge base', ['aws-kb-retrieval_retrieve_from_aws_kb']],
  ['read three files at once', ['filesystem_read_multiple_files']],
  ['change the word foo to bar in main.py', ['filesystem_edit_file']],
  ['list the files in /tmp with their sizes', ['filesystem_list_directory_with_sizes']],
  ['show me this png image file', ['filesystem_read_media_file']],
  ['create a new repository named demo', ['github_create_repository', 'gitlab_create_repository']],
  ['get the README of owner/repo', ['github_get_file_contents', 'gitlab_get_file_contents']],
  ['upload several files in one commit', ['github_push_files', 'gitlab_push_files']],
  ['start a new branch called fix-login', ['github_create_branch', 'gitlab_create_branch']],
  ['close issue 7', ['github_update_issue']],
  ['what issues are open in my repo', ['github_list_issues']],
  ['find github users named octocat', ['github_search_users']],
  ['review the pull request and approve it', ['github_create_pull_request_review']],
  ['merge PR 12', ['github_merge_pull_request']],
  ['open a merge request on gitlab', ['gitlab_create_merge_request']],
  ['find repositories about machine learning', ['github_search_repositories', 'gitlab_search_repositories']],
  ['details about this restaurant place id', ['google-maps_maps_place_details']],
  ['distance matrix between three cities', ['google-maps_maps_distance_matrix']],
  ['link Alice to Bob as friends in the graph', ['memory_create_relations']],
  ['remove the observation that Bob likes tea', ['memory_delete_observations']],
  ['search the graph for nodes about Paris', ['memory_search_nodes']],
  ['click the submit button', ['puppeteer_puppeteer_click']],
  ['pick option two from the dropdown', ['puppeteer_puppeteer_select']],
  ['hover over the menu', ['puppeteer_puppeteer_hover']],
  ['delete the key temp from redis', ['redis_delete']],
  ['show all keys matching user:*', ['redis_list']],
  ['reply in the thread to that slack message', ['slack_slack_reply_to_thread']],
  ['who is in our slack workspace', ['slack_slack_get_users']],
  ['show the profile of user U123', ['slack_slack_get_user_profile']],
  ['get all replies of a thread', ['slack_slack_get_thread_replies']],
  ['print the environment variables', ['everything_get-env']],
  ['give me a tiny test image', ['everything_get-tiny-image']],
  ['run a long operation and report progress', ['everything_trigger-long-running-operation']],
  ['compress a file with gzip', ['everything_gzip-file-as-resource']],
  ['turn on logging simulation', ['everything_toggle-simulated-logging']],
  ['search the web for python tutorials', ['brave-search_brave_web_search']],
  ['pizza places in Brooklyn', ['brave-search_brave_local_search', 'google-maps_maps_search_places']],
  ['show the diff of a pull request', ['github_get_pull_request_files', 'github_get_pull_request']],
  ['list open pull requests', ['github_list_pull_requests']],
  ['search issues mentioning crash', ['github_search_issues']],
  ['update the file on github with new content', ['github_create_or_update_file', 'gitlab_create_or_update_file']],
];

describe('hand-written requests on the fixture servers', () => {
  it('keeps the first relevant tool high', () => {
    const index = new ToolIndex();
    for (const t of tools) index.add(t);
    let top1 = 0;
    let mrr = 0;
    for (const [query, wanted] of CASES) {
      const rank = index.search(query, { limit: 10 }).findIndex((h) => wanted.includes(h.key));
      if (rank === 0) top1++;
      if (rank >= 0) mrr += 1 / (rank + 1);
    }
    expect(CASES.length).toBe(80);
    expect(top1 / CASES.length).toBeGreaterThanOrEqual(0.68);
    expect(mrr / CASES.length).toBeGreaterThanOrEqual(0.75);
  });
});
