// The known names of setup funcs (config `type` / native `func`), metrics and getters, as seen in Spider2-V,
// the native (seed) task set and OSWorld (desktop_env/evaluators/{metrics,getters}/__init__.py and the
// `_<type>_setup` methods of its SetupController). Used to warn about unknown names with the closest known one.
import { nearestName } from '../nearest-name';

/** Config / postconfig step types and native setup funcs. */
export const setupFuncs: ReadonlySet<string> = new Set([
  // native
  'upload_file_to_vm', 'upload_script_and_execute',
  // OSWorld
  'download', 'upload_file', 'change_wallpaper', 'tidy_desktop', 'open', 'launch', 'execute', 'execute_with_verification',
  'command', 'sleep', 'act', 'replay', 'activate_window', 'close_window', 'proxy', 'chrome_open_tabs', 'chrome_close_tabs',
  'login', 'googledrive', 'update_browse_history',
  // Spider2-V
  'copyfile_from_host_to_guest', 'script_and_execute', 'google_chrome_browser', 'airbyte_webui_init', 'snowflake_init',
  'snowflake_login', 'superset_webui_init', 'astro_webui_init', 'astro_refresh_page', 'bigquery_init', 'bigquery_login',
  'googledrive_init', 'googledrive_login', 'dagster_webui_init', 'dbt_cloud_init', 'dbt_cloud_webui_login',
  'metabase_webui_init', 'workarena_task_init', 'workarena_unique_fields', 'snowflake_delete_folder',
  'snowflake_delete_filter', 'snowflake_write_sqls_in_new_worksheet', 'hasura_login',
  // Proctor's own
  'serve_demo_site',
]);

/** Evaluator funcs (metrics), plus the special `infeasible`. */
export const metricNames: ReadonlySet<string> = new Set([
  'infeasible',
  // native
  'compare_notebook_outputs', 'compare_csv', 'compare_script_logs', 'compare_notebook_cells', 'are_jupyter_outputs_cleared',
  'evaluate_multiple_notebooks', 'compare_ipynb_files', 'compare_jupyterlab_images', 'compare_text_file',
  'is_jupyter_cell_executed',
  // Spider2-V
  'check_include_exclude', 'check_local_database', 'is_not_in_list', 'compare_table', 'compare_json_file', 'diff_text_file',
  'check_yaml_file', 'is_expected_url_pattern_match', 'compare_metabase_images', 'exact_match', 'compare_images',
  'check_file_existence', 'literal_match', 'compare_image_list', 'check_snowflake_log_message', 'compare_sql',
  'is_snowflake_user_created',
  // OSWorld: basic_os
  'check_gnome_favorite_apps', 'is_utc_0', 'check_text_enlarged', 'check_moved_jpgs', 'is_in_vm_clickboard',
  // chrome
  'is_expected_tabs', 'is_expected_bookmarks', 'compare_pdfs', 'compare_htmls', 'compare_archive', 'is_cookie_deleted',
  'is_shortcut_on_desktop', 'check_font_size', 'check_enabled_experiments', 'check_history_deleted',
  'is_expected_search_query', 'is_expected_active_tab', 'is_added_to_steam_cart', 'is_expected_installed_extensions',
  'compare_pdf_images', 'is_expected_active_tab_approximate',
  // docs
  'compare_font_names', 'compare_subscript_contains', 'has_page_numbers_in_footers', 'compare_docx_lines',
  'evaluate_colored_words_in_tables', 'check_highlighted_words', 'evaluate_strike_through_last_paragraph',
  'evaluate_conversion', 'evaluate_spacing', 'check_italic_font_size_14', 'evaluate_alignment', 'get_unique_train_ids',
  'check_no_duplicates', 'compare_init_lines', 'find_default_font', 'contains_page_break', 'compare_docx_files',
  'compare_docx_tables', 'compare_line_spacing', 'compare_insert_equation', 'compare_highlighted_text',
  'is_first_line_centered', 'check_file_exists', 'check_tabstops', 'compare_contains_image',
  'compare_docx_files_and_ignore_new_lines', 'compare_docx_images', 'compare_image_text', 'compare_references',
  'compare_unique_train_records',
  // general
  'check_csv', 'check_accessibility_tree', 'run_sqlite3', 'check_json', 'check_list', 'match_in_list', 'is_in_list',
  'fuzzy_match', 'check_direct_json_object', 'compare_time_in_speedtest_results', 'is_included_all_json_objects',
  'is_gold_text_included_in_pdf', 'check_line_number', 'file_contains', 'compare_terminal_and_txt', 'fuzzy_place_math',
  'compare_python_pure_text',
  // gimp
  'check_structure_sim_resized', 'check_structure_sim_with_threshold', 'check_brightness_decrease_and_structure_sim',
  'check_contrast_increase_and_structure_sim', 'check_saturation_increase_and_structure_sim', 'check_image_size',
  'check_image_mirror', 'check_palette_and_structure_sim', 'check_textbox_on_leftside', 'check_green_background',
  'check_file_exists_and_structure_sim', 'check_triangle_position', 'check_structure_sim', 'check_config_status',
  'increase_saturation', 'decrease_brightness', 'compare_triangle_positions', 'check_sharper', 'check_image_file_size',
  // libreoffice, others, pdf, slides
  'check_libre_locale', 'compare_epub', 'check_mp3_meta', 'check_pdf_pages', 'check_presenter_console_disable',
  'check_image_stretch_and_center', 'check_slide_numbers_color', 'compare_pptx_files', 'check_strikethrough',
  'check_slide_orientation_Portrait', 'evaluate_presentation_fill_to_rgb_distance', 'check_left_panel', 'check_transition',
  'check_page_number_colors', 'check_auto_saving_time',
  // table, thunderbird
  'compare_conference_city_in_order', 'check_thunderbird_prefs', 'check_thunderbird_filter', 'check_thunderbird_folder',
  // vlc
  'is_vlc_playing', 'is_vlc_recordings_folder', 'is_vlc_fullscreen', 'compare_audios', 'compare_videos', 'check_qt_bgcone',
  'check_one_instance_when_started_from_file', 'check_qt_minimal_view', 'check_qt_max_volume', 'check_qt_slider_colours',
  'check_global_key_play_pause', 'check_play_and_exit',
  // vscode
  'compare_config', 'compare_answer', 'compare_result_files', 'is_extension_installed', 'check_json_settings',
  'check_json_keybindings', 'check_python_file_by_test_suite', 'check_python_file_by_gold_file',
  'check_html_background_image', 'compare_zip_files',
]);

/** Getter types (`get_<type>` in OSWorld / Spider2-V). */
export const getterTypes: ReadonlySet<string> = new Set([
  // files and general
  'vm_file', 'local_file', 'cloud_file', 'cache_file', 'content_from_vm_file', 'vm_command_line', 'vm_terminal_output',
  'vm_command_error', 'vm_script_output', 'rule', 'rule_relativeTime', 'accessibility_tree', 'time_diff_range', 'list',
  'replay', 'vm_screen_size', 'vm_window_size', 'vm_wallpaper', 'list_directory',
  // chrome
  'default_search_engine', 'cookie_data', 'bookmarks', 'open_tabs_info', 'pdf_from_url', 'shortcuts_on_desktop', 'history',
  'page_info', 'enabled_experiments', 'chrome_language', 'chrome_font_size', 'profile_name', 'number_of_search_results',
  'googledrive_file', 'active_tab_info', 'enable_do_not_track', 'enable_enhanced_safety_browsing', 'new_startup_page',
  'find_unpacked_extension_path', 'data_delete_automacally', 'active_tab_html_parse', 'active_tab_url_parse',
  'gotoRecreationPage_and_get_html_content', 'url_dashPart', 'active_url_from_accessTree', 'find_installed_extension_name',
  'info_from_website', 'validate_correct_url', 'html_check', 'enable_safe_browsing', 'chrome_appearance_mode_ui', 'url_path_parse',
  // apps
  'gimp_config_file', 'audio_in_slide', 'background_image_in_slide', 'vlc_playing_info', 'vlc_config',
  'default_video_player', 'vscode_config', 'conference_city_in_order',
  // Spider2-V cloud and web apps
  'dbt_profiles', 'dbt_project_info', 'dbt_environment_info', 'dbt_job_info', 'bigquery_table_to_csv',
  'bigquery_database_to_zip', 'bigquery_datasets', 'bigquery_sql_result_to_csv', 'bigquery_connections',
  'googlesheet_active_file', 'airbyte_localhost_page', 'superset_localhost_page', 'metabase_question_sql',
  'workarena_task_result', 'snowflake_user_info', 'snowflake_execution_result', 'snowflake_table_to_csv',
  'snowflake_database_schema_to_csv', 'snowflake_worksheet_names_in_folder', 'snowflake_worksheet_sql',
  'snowflake_function_result', 'snowflake_log_message', 'snowflake_worksheet_sql_result',
]);

export type VocabularyKind = 'setup func' | 'metric' | 'getter type';

const sets: Record<VocabularyKind, ReadonlySet<string>> = {
  'setup func': setupFuncs,
  metric: metricNames,
  'getter type': getterTypes,
};

/** undefined when `name` is known; otherwise a message naming the closest known name when one is near. */
export function unknownName(kind: VocabularyKind, name: string): string | undefined {
  const known = sets[kind];
  if (known.has(name)) return undefined;
  const near = nearestName(name, known);
  return `unknown ${kind} '${name}'${near ? ` (closest known: '${near}')` : ''}`;
}
