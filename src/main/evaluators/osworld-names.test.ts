// Issue #11's list: every metric and getter OSWorld's task files name that needs no account is registered, with
// its family (and a getter with what it needs from the machine).
import { describe, expect, it } from 'vitest';
import { getterNeedsOf, getters, metricFamilyOf, metrics } from './catalog';

const osworldMetrics = `
    check_accessibility_tree check_auto_saving_time check_brightness_decrease_and_structure_sim check_config_status
    check_contrast_increase_and_structure_sim check_csv check_direct_json_object
    check_file_exists_and_structure_sim check_font_size check_global_key_play_pause check_gnome_favorite_apps
    check_green_background check_highlighted_words check_history_deleted check_image_file_size check_image_mirror
    check_image_size check_image_stretch_and_center check_italic_font_size_14 check_json check_json_keybindings
    check_json_settings check_left_panel check_line_number check_list check_moved_jpgs check_mp3_meta
    check_one_instance_when_started_from_file check_page_number_colors check_palette_and_structure_sim
    check_pdf_pages check_play_and_exit check_presenter_console_disable check_python_file_by_test_suite
    check_qt_bgcone check_qt_max_volume check_qt_minimal_view check_qt_slider_colours
    check_saturation_increase_and_structure_sim check_slide_orientation_Portrait check_structure_sim
    check_structure_sim_resized check_structure_sim_with_threshold check_tabstops check_textbox_on_leftside
    check_thunderbird_filter check_thunderbird_prefs check_transition check_triangle_position compare_archive
    compare_audios compare_conference_city_in_order compare_config compare_docx_files
    compare_docx_files_and_ignore_new_lines compare_docx_images compare_docx_tables compare_epub compare_font_names
    compare_htmls compare_image_text compare_line_spacing compare_pdf_images compare_pdfs compare_pptx_files
    compare_python_pure_text compare_references compare_result_files compare_subscript_contains
    compare_unique_train_records compare_videos compare_zip_files contains_page_break
    evaluate_colored_words_in_tables evaluate_presentation_fill_to_rgb_distance
    evaluate_strike_through_last_paragraph file_contains find_default_font fuzzy_place_math
    has_page_numbers_in_footers is_added_to_steam_cart is_cookie_deleted is_expected_active_tab
    is_expected_active_tab_approximate is_expected_bookmarks is_expected_installed_extensions
    is_expected_search_query is_expected_tabs is_extension_installed is_first_line_centered is_in_list
    is_in_vm_clickboard is_shortcut_on_desktop is_utc_0 is_vlc_fullscreen is_vlc_playing is_vlc_recordings_folder
    match_in_list run_sqlite3
`
  .trim()
  .split(/\s+/);

const osworldGetters = `
    accessibility_tree active_tab_html_parse active_tab_url_parse audio_in_slide background_image_in_slide
    bookmarks chrome_appearance_mode_ui chrome_font_size cloud_file content_from_vm_file cookie_data
    data_delete_automacally default_search_engine default_video_player enable_do_not_track enable_safe_browsing
    find_installed_extension_name find_unpacked_extension_path gimp_config_file
    gotoRecreationPage_and_get_html_content history info_from_website list_directory new_startup_page
    open_tabs_info page_info pdf_from_url profile_name rule_relativeTime shortcuts_on_desktop url_dashPart
    url_path_parse vlc_config vlc_playing_info vm_command_error vm_screen_size vm_terminal_output vm_wallpaper
    vm_window_size vscode_config
`
  .trim()
  .split(/\s+/);

describe("OSWorld's metric and getter names", () => {
  it('registers every metric with its family', () => {
    const missing = osworldMetrics.filter((n) => !metrics.has(n));
    expect(missing).toEqual([]);
    expect(osworldMetrics.filter((n) => !metricFamilyOf(n))).toEqual([]);
  });

  it('registers every getter with its family and needs', () => {
    expect(osworldGetters.filter((n) => !getters.has(n))).toEqual([]);
    expect(osworldGetters.filter((n) => !getterNeedsOf(n))).toEqual([]);
  });
});
