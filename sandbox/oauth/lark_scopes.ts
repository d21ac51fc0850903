/**
 * The scopes Lark knows, so the sandbox can refuse a device authorization that names an unknown
 * one, as Lark does (lark-cli issue #416: "The provided scope list contains invalid or malformed
 * scopes").
 *
 * Sources, all from lark-cli (larksuite/cli):
 * - `internal/registry/scope_priorities.json`: the scope registry, 1111 names (includes
 *   `offline_access`); `internal/registry/scopes.go` and `internal/auth/scope.go` read it;
 * - `internal/registry/meta_data.json` at commit d5d198a: scopes the API catalogue lists for
 *   some methods that the registry lacks (`calendar:calendar.event:writeonly`,
 *   `im:resource:upload`, ...);
 * - the shortcuts' declarations under `shortcuts/` (`Scopes`, `UserScopes`, `BotScopes`) name
 *   no scope outside the registry;
 * - Lark's contact-v3 user get doc (reference/contact-v3/user/get), whose "any one of" API
 *   permissions include `contact:contact:readonly` and `contact:contact:access_as_app`, which
 *   neither lark-cli list has.
 *
 * `im:message:send` is in none of them: it is not a Lark scope.
 *
 * @module
 */

/** The scope that makes the token endpoint issue a refresh token. */
export const OFFLINE_ACCESS = "offline_access";

// internal/registry/scope_priorities.json (lark-cli), sorted.
const REGISTRY = `
acs:access_record:readonly acs:access_record:write acs:device:write acs:devices:readonly
acs:users admin:admin_dept_stat:readonly admin:admin_user_stat:readonly admin:app.admin:check
admin:app.admin:readonly admin:app.admin_id:readonly admin:app.category:update
admin:app.enable:write admin:app.info:readonly admin:app.user_usable:readonly
admin:app.visibility admin:badge admin:badge.grant admin:ent_email_password aily:data_asset:read
aily:data_asset:upload_file aily:data_asset:write aily:file:read aily:file:write
aily:knowledge:ask aily:knowledge:read aily:knowledge:write aily:message:read aily:message:write
aily:run:read aily:run:write aily:session:read aily:session:write aily:skill:read
aily:skill:write app_engine:application.environment_variable:read
app_engine:application.event:read app_engine:application.event_subscriber:read
app_engine:application.function:write app_engine:application.log:read
app_engine:application.metric:read app_engine:approval:read app_engine:approval:write
app_engine:apps:read app_engine:attachment:read app_engine:attachment:write
app_engine:data.record.change:read app_engine:dataset.meta:read app_engine:dataset.record:read
app_engine:flow:write app_engine:global_option:read app_engine:object.meta:read
app_engine:object.record:read app_engine:object.record:write
app_engine:record_permission.member:write app_engine:role.member:write app_engine:role:read
app_engine:seat_activities:read app_engine:seat_assignments:read
app_engine:security.audit_log:read app_engine:workspace.sql_commands:write
app_engine:workspace.table.record:read app_engine:workspace.table.record:write
app_engine:workspace.table:read app_engine:workspace.table:write application:application
application:application.app_message_stats.overview:readonly application:application.app_package
application:application.app_usage_stats.overview:readonly application:application.app_version
application:application.app_version:readonly application:application.bot.operator_name:readonly
application:application.collaborators:write application:application.contacts_range:write
application:application.feedback.feedback_info application:application:patch
application:application:self_manage application:bot.menu:readonly application:bot.menu:write
approval:approval approval:approval.list:readonly approval:approval:readonly approval:definition
approval:external_approval approval:external_instance approval:instance
approval:instance.comment approval:instance:read approval:instance:write approval:task
approval:task:read approval:task:write attendance:overtime_approval:write attendance:rule
attendance:rule:readonly attendance:task attendance:task:readonly
attendance_machine:check_in_record:write attendance_machine:device:write
attendance_machine:users auth:user_access_token:read baike:entity baike:entity:exempt_delete
baike:entity:exempt_review baike:entity:readonly base:app:copy base:app:create base:app:read
base:app:update base:collaborator:create base:collaborator:delete base:collaborator:read
base:dashboard:copy base:dashboard:create base:dashboard:delete base:dashboard:read
base:dashboard:update base:field:create base:field:delete base:field:read base:field:update
base:field_group:create base:form:create base:form:delete base:form:read base:form:update
base:history:read base:record:create base:record:delete base:record:read base:record:retrieve
base:record:update base:role:create base:role:delete base:role:read base:role:update
base:table:create base:table:delete base:table:read base:table:update base:view:read
base:view:write_only base:workflow:create base:workflow:delete base:workflow:read
base:workflow:update base:workflow:write base:workspace:list bitable:app bitable:app:readonly
block:entity block:message board:whiteboard:node:create board:whiteboard:node:delete
board:whiteboard:node:read board:whiteboard:node:update calendar:calendar
calendar:calendar.acl:create calendar:calendar.acl:delete calendar:calendar.acl:read
calendar:calendar.event:create calendar:calendar.event:delete calendar:calendar.event:read
calendar:calendar.event:reply calendar:calendar.event:update calendar:calendar.free_busy:read
calendar:calendar:create calendar:calendar:delete calendar:calendar:read
calendar:calendar:readonly calendar:calendar:subscribe calendar:calendar:update
calendar:exchange.bindings:create calendar:exchange.bindings:delete
calendar:exchange.bindings:read calendar:room calendar:room:readonly
calendar:settings.caldav:create calendar:settings.workhour:read calendar:time_off:create
calendar:time_off:delete calendar:timeoff cardkit:card:read cardkit:card:write
cardkit:template:read collab_plugins:collab_plugins
collab_plugins:collab_plugins.relation.change:read component:selector component:user_profile
contact:contact contact:contact.base:readonly contact:contact:readonly_as_app
contact:contact:update_department_id contact:contact:update_user_id
contact:department.base:readonly contact:department.hrbp:readonly
contact:department.organize:readonly contact:functional_role contact:functional_role:readonly
contact:group contact:group:readonly contact:job_family contact:job_family:readonly
contact:job_level contact:job_level:readonly contact:job_title:readonly contact:role:readonly
contact:unit contact:unit:readonly contact:user.assign_info:read contact:user.base:readonly
contact:user.basic_profile:readonly contact:user.department:readonly
contact:user.department_path:readonly contact:user.dotted_line_leader_info.read
contact:user.email:readonly contact:user.employee:readonly contact:user.employee_id:readonly
contact:user.employee_number:read contact:user.gender:readonly contact:user.id:readonly
contact:user.job_family:readonly contact:user.job_level:readonly contact:user.phone:readonly
contact:user.subscription_ids:write contact:user.user_geo contact:user:search
contact:work_city:readonly corehr:additional_job.compensation_type:read
corehr:additional_job.compensation_type:write corehr:additional_job.job:read
corehr:additional_job.job:write corehr:additional_job.job_level:read
corehr:additional_job.job_level:write corehr:additional_job.position:read
corehr:additional_job.position:write corehr:additional_job.service_company:read
corehr:additional_job.service_company:write corehr:additional_job.work_shift:read
corehr:additional_job.work_shift:write corehr:additional_job:read corehr:additional_job:write
corehr:approval_groups.orgdraft_department_change:read
corehr:approval_groups.orgdraft_job_change:read
corehr:approval_groups.orgdraft_position_change:read corehr:approval_groups:read
corehr:authorization.bp:read corehr:authorization:read corehr:authorization:write
corehr:bp.get_by_department:read corehr:bp.list:read corehr:common_data.basic_data:read
corehr:common_data.id.convert:read corehr:common_data.meta_data:read
corehr:common_data.meta_data:write corehr:common_data.preset_data:read
corehr:common_data.preset_data:write corehr:company:read corehr:company:write
corehr:compensation.insurance:read corehr:compensation.lump_sum_payment:read
corehr:compensation.lump_sum_payment:write corehr:compensation.recurring_payment:delete
corehr:compensation.recurring_payment:read corehr:compensation.recurring_payment:update
corehr:compensation.recurring_payment:write corehr:compensation.social_adjust_record:read
corehr:compensation.social_archive:read corehr:compensation.social_plan:read
corehr:compensation_archive:write corehr:compensation_archive_detail.change_description:read
corehr:compensation_archive_detail.indicators:read corehr:compensation_archive_detail.items:read
corehr:compensation_archive_detail.plan:read
corehr:compensation_archive_detail.salary_level:read corehr:compensation_archive_detail:read
corehr:compensation_change_reason:read corehr:compensation_indicator:read
corehr:compensation_item:read corehr:compensation_item_category:read
corehr:compensation_plan:read corehr:compensation_plan_detail.indicators:read
corehr:compensation_plan_detail.items:read corehr:compensation_standards:read
corehr:contract.company:read corehr:contract.company:write corehr:contract.period:read
corehr:contract.period:write corehr:contract:create corehr:contract:read corehr:contract:write
corehr:corehr corehr:corehr:readonly corehr:cost_allocation:read corehr:cost_allocation:write
corehr:cost_center:read corehr:cost_center:write corehr:custom_org:read corehr:custom_org:write
corehr:default_cost_center:read corehr:default_cost_center:write
corehr:department.cost_center_id:read corehr:department.custom_fields:read
corehr:department.manager.search:read corehr:department.manager:read
corehr:department.operation_log:read corehr:department.organize.search:read
corehr:department.organize:read corehr:department:read corehr:department:write corehr:draft:read
corehr:employee.add:write corehr:employee.all_bp:read corehr:employee.bp:read
corehr:employee.event:read corehr:employee.job_data:read corehr:employee.update:write
corehr:employee:read corehr:employee:write corehr:employees.international_assignment:read
corehr:employees.international_assignment:write corehr:employment.archive_cpst_plan:read
corehr:employment.assignment:read corehr:employment.assignment_pay_group:read
corehr:employment.compensation_type:read corehr:employment.compensation_type:write
corehr:employment.contract_type:read corehr:employment.cost_center:read
corehr:employment.custom_field:read corehr:employment.custom_org:read
corehr:employment.custom_org:write corehr:employment.custom_org_field:read
corehr:employment.custom_org_field:write corehr:employment.has_offer_salary:read
corehr:employment.international_assignment.bt:read
corehr:employment.international_assignment.compensation_type:read
corehr:employment.international_assignment.compensation_type:write
corehr:employment.international_assignment.custom_field.apaas_id__c:read
corehr:employment.international_assignment.custom_field:read
corehr:employment.international_assignment.custom_field:write
corehr:employment.international_assignment.job:read
corehr:employment.international_assignment.job:write
corehr:employment.international_assignment.job_family:read
corehr:employment.international_assignment.job_family:write
corehr:employment.international_assignment.job_grade:read
corehr:employment.international_assignment.job_grade:write
corehr:employment.international_assignment.job_level:read
corehr:employment.international_assignment.job_level:write
corehr:employment.international_assignment.position:read
corehr:employment.international_assignment.position:write
corehr:employment.international_assignment.service_company:read
corehr:employment.international_assignment.service_company:write
corehr:employment.international_assignment.weekly_working_hours:read
corehr:employment.international_assignment.weekly_working_hours:write
corehr:employment.international_assignment.work_calendar:read
corehr:employment.international_assignment.work_calendar:write
corehr:employment.international_assignment.work_location:read
corehr:employment.international_assignment.work_location:write
corehr:employment.international_assignment.work_shift:read
corehr:employment.international_assignment.work_shift:write
corehr:employment.international_assignment.working_hours_type:read
corehr:employment.international_assignment.working_hours_type:write corehr:employment.job:read
corehr:employment.job_grade:read corehr:employment.job_grade:write
corehr:employment.job_level:read corehr:employment.job_level:write
corehr:employment.non_compete_covenant:read corehr:employment.non_compete_covenant:write
corehr:employment.offboarding_reason.search:read corehr:employment.offboarding_reason:read
corehr:employment.pathway:read corehr:employment.pathway:write corehr:employment.pay_group:read
corehr:employment.position:read corehr:employment.position:write
corehr:employment.recruitment_project_id:read corehr:employment:read corehr:employment:write
corehr:file:download corehr:file:write corehr:flow.definition:read
corehr:international_assignment:read corehr:international_assignment:write
corehr:job.job_level:read corehr:job.only:read corehr:job:read corehr:job:write
corehr:job_change.company:read corehr:job_change.company:write
corehr:job_change.compensation_type:read corehr:job_change.compensation_type:write
corehr:job_change.contract_end_date:read corehr:job_change.contract_end_date:write
corehr:job_change.contract_number:read corehr:job_change.contract_number:write
corehr:job_change.contract_start_date:read corehr:job_change.contract_start_date:write
corehr:job_change.contract_type:read corehr:job_change.contract_type:write
corehr:job_change.cost_center:read corehr:job_change.cost_center:write
corehr:job_change.department:read corehr:job_change.department:write
corehr:job_change.direct_manager:write corehr:job_change.dotted_manager:write
corehr:job_change.duration_type:read corehr:job_change.duration_type:write
corehr:job_change.employee_subtype:read corehr:job_change.employment_custom_field:read
corehr:job_change.is_adjust_salary:read corehr:job_change.job:read corehr:job_change.job:write
corehr:job_change.job_family:read corehr:job_change.job_family:write
corehr:job_change.job_grade:read corehr:job_change.job_grade:write
corehr:job_change.job_level:read corehr:job_change.job_level:write
corehr:job_change.pathway:read corehr:job_change.pathway:write
corehr:job_change.probation_end_date:write corehr:job_change.probation_exist:read
corehr:job_change.probation_exist:write corehr:job_change.remark:read
corehr:job_change.remark:write corehr:job_change.service_company:read
corehr:job_change.service_company:write corehr:job_change.signing_type:write
corehr:job_change.social_security_city:read corehr:job_change.social_security_city:write
corehr:job_change.status_update_event:read corehr:job_change.update_event_v2:read
corehr:job_change.weekly_working_hours:write corehr:job_change.work_location:write
corehr:job_change.work_shift:read corehr:job_change.work_shift:write
corehr:job_change.workforce_type:read corehr:job_change.workforce_type:write
corehr:job_change.working_calendar:read corehr:job_change.working_calendar:write
corehr:job_change.working_hours_type:write corehr:job_change:create corehr:job_change:read
corehr:job_change:write corehr:job_data.assignment_start_reason:read
corehr:job_data.compensation_type:read corehr:job_data.job_data_reason:read
corehr:job_data.service_company:read corehr:job_data.work_shift:read corehr:job_data:read
corehr:job_data:readonly corehr:job_data:write corehr:job_family:read corehr:job_family:write
corehr:job_grade:read corehr:job_grade:write corehr:job_level corehr:job_level:read
corehr:job_level:readonly corehr:job_level:write corehr:leave:read corehr:leave_grant:read
corehr:leave_grant:write corehr:leave_granting_record:write corehr:leave_record:read
corehr:leaves:read corehr:locations:read corehr:locations:write
corehr:offboarding.block_list:read corehr:offboarding.block_list:write
corehr:offboarding.checklist_status_message:read corehr:offboarding.custom_field:read
corehr:offboarding.last_attendance_date:read corehr:offboarding.noncompete_agreement:read
corehr:offboarding.retain_account:read corehr:offboarding.retain_account:write
corehr:offboarding.revoke:write corehr:offboarding.signature:read
corehr:offboarding.social_insurance:read corehr:offboarding.status_message_v2:read
corehr:offboarding.submit:write corehr:offboarding.update:write
corehr:offboarding.update_field_message:read corehr:offboarding:read corehr:offboarding:write
corehr:orgrole_info:read corehr:out:write corehr:pathway:read corehr:pathway:write
corehr:person.additional_nationalities:read corehr:person.additional_nationalities:write
corehr:person.address:read corehr:person.address:write corehr:person.bank_account:read
corehr:person.bank_account:write corehr:person.born_country_region:read
corehr:person.born_country_region:write corehr:person.citizenship_status:read
corehr:person.citizenship_status:write corehr:person.custom_field:read
corehr:person.custom_field:write corehr:person.date_entered_workforce:read
corehr:person.date_entered_workforce:write corehr:person.date_of_birth:read
corehr:person.date_of_birth:write corehr:person.dependent:read corehr:person.dependent:write
corehr:person.education:read corehr:person.education:write corehr:person.email:read
corehr:person.email:write corehr:person.emergency_contact:read
corehr:person.emergency_contact:write corehr:person.entry_leave_time:read
corehr:person.gender:read corehr:person.gender:write corehr:person.hukou:read
corehr:person.hukou:write corehr:person.is_disabled:read corehr:person.is_disabled:write
corehr:person.is_old_alone:read corehr:person.is_old_alone:write corehr:person.legal_name:read
corehr:person.legal_name:write corehr:person.marital_status:read
corehr:person.marital_status:write corehr:person.martyr_family:read
corehr:person.martyr_family:write corehr:person.national_id.search:read
corehr:person.national_id:read corehr:person.national_id:write corehr:person.nationality:read
corehr:person.nationality:write corehr:person.native_region:read
corehr:person.native_region:write corehr:person.passport_number:read
corehr:person.personal_profile:read corehr:person.personal_profile:write
corehr:person.phone.search:read corehr:person.phone:read corehr:person.phone:write
corehr:person.political_affiliation:read corehr:person.political_affiliation:write
corehr:person.preferred_name:write corehr:person.race:read corehr:person.race:write
corehr:person.religion:read corehr:person.religion:write corehr:person.resident_tax:read
corehr:person.resident_tax:write corehr:person.resident_tax_custom_field:read
corehr:person.resident_tax_custom_field:write corehr:person.work_experience:read
corehr:person.work_experience:write corehr:person:write corehr:position.direct_leader:read
corehr:position.employee_type:read corehr:position.job:read corehr:position.job_family:read
corehr:position.job_grade:read corehr:position.job_level:read
corehr:position.working_hours_type:read corehr:position:read corehr:position:write
corehr:pre_hire.abnormal_reason_field:read corehr:pre_hire.check_in_data:read
corehr:pre_hire.company_manual_updated:read corehr:pre_hire.company_sponsored_visa:read
corehr:pre_hire.cost_center:read corehr:pre_hire.cost_center:write corehr:pre_hire.flow_id:read
corehr:pre_hire.office_address:read corehr:pre_hire.onboarding_address:read
corehr:pre_hire.search:read corehr:pre_hire.withdrawn_reason:read
corehr:pre_hire:check_work_email corehr:pre_hire:complete corehr:pre_hire:delete
corehr:pre_hire:read corehr:pre_hire:read_only corehr:pre_hire:restore_flow_instance
corehr:pre_hire:transform_onboarding_task corehr:pre_hire:transit_tasks corehr:pre_hire:update
corehr:pre_hire:withdraw_onboarding corehr:pre_hire:write
corehr:probation.actual_probation_end_date:write corehr:probation.assessment.submit2:write
corehr:probation.assessment:write corehr:probation.custom_field:read
corehr:probation.custom_field:write corehr:probation.extended_probation_period_duration:write
corehr:probation.notes:read corehr:probation.notes:write
corehr:probation.probation_expected_end_date:write
corehr:probation.probation_extend_expected_end_date:write
corehr:probation.probation_outcome:read corehr:probation.probation_outcome:write
corehr:probation.probation_start_date:write corehr:probation.score:read
corehr:probation.self_review:read corehr:probation.self_review:write
corehr:probation.submit:write corehr:probation:read corehr:probation:write
corehr:process.detail:read corehr:process.instance:read corehr:process.instance:write
corehr:process:read corehr:report.data:read corehr:security_group:read
corehr:signature.file:read corehr:signature_file.pre_hire:read
corehr:signature_file.pre_hire:write corehr:signature_file:read corehr:signature_file:terminate
corehr:signature_template:read corehr:work_calendar:read corehr:workforce_detail:read
corehr:workforce_detail:write corehr:workforce_plan:read
corehr:workforce_plan_centralized_reporting_project_detail:write directory:custom_field:write
directory:department.base:read directory:department.count:read directory:department.create:write
directory:department.custom_field:read directory:department.data_source:read
directory:department.delete:write directory:department.department_path:read
directory:department.external_id:read directory:department.has_child:read
directory:department.idconvert:read directory:department.leader:read
directory:department.name:read directory:department.order_weight:read
directory:department.organization:read directory:department.parent_id:read
directory:department.status:read directory:department.update:write directory:department:list
directory:department:read directory:department:search directory:department:write
directory:employee.base.avatar:read directory:employee.base.background_image:read
directory:employee.base.base:read directory:employee.base.custom_field:read
directory:employee.base.data_source:read directory:employee.base.department:read
directory:employee.base.department_path:read directory:employee.base.dept_order:read
directory:employee.base.description:read directory:employee.base.email:read
directory:employee.base.enterprise_email:read
directory:employee.base.enterprise_email_alias:read directory:employee.base.external_id:read
directory:employee.base.gender:read directory:employee.base.geo:read
directory:employee.base.geo:write directory:employee.base.is_admin:read
directory:employee.base.is_primary_admin:read directory:employee.base.is_resigned:read
directory:employee.base.leader:read directory:employee.base.mobile:read
directory:employee.base.name.another_name:read directory:employee.base.name.first_name:read
directory:employee.base.name.last_name:read directory:employee.base.name.name:read
directory:employee.base.resign_time:read directory:employee.base.role:read
directory:employee.base.status:read directory:employee.base.subscription_ids:read
directory:employee.base.subscription_ids:write directory:employee.create:write
directory:employee.idconvert:read directory:employee.resign:write
directory:employee.resurrect:write directory:employee.to_be_resigned:write
directory:employee.update:write directory:employee.work.base_work:read
directory:employee.work.employment_type:read directory:employee.work.extension_number:read
directory:employee.work.job_number:read directory:employee.work.job_title:read
directory:employee.work.join_date:read directory:employee.work.positions:read
directory:employee.work.resign_date:read directory:employee.work.resign_reason:read
directory:employee.work.resign_remark:read directory:employee.work.resign_type:read
directory:employee.work.staff_status:read directory:employee.work.work_country_or_region:read
directory:employee.work.work_place:read directory:employee.work.work_station:read
directory:employee:list directory:employee:read directory:employee:search
directory:employee:write directory:employee_type_enum:write directory:job_title.base:read
directory:job_title.status:read directory:job_title:write directory:place.base:read
directory:place.status:read directory:place:write docs:doc docs:doc:readonly
docs:document.comment:create docs:document.comment:delete docs:document.comment:read
docs:document.comment:update docs:document.comment:write_only docs:document.content:read
docs:document.media:download docs:document.media:upload docs:document.subscription
docs:document.subscription:read docs:document:copy docs:document:export docs:document:import
docs:event.document_deleted:read docs:event.document_edited:read docs:event.document_opened:read
docs:event:subscribe docs:permission.member docs:permission.member:auth
docs:permission.member:create docs:permission.member:delete docs:permission.member:readonly
docs:permission.member:retrieve docs:permission.member:transfer docs:permission.member:update
docs:permission.setting docs:permission.setting:read docs:permission.setting:readonly
docs:permission.setting:write_only document_ai:bank_card:recognize
document_ai:business_card:recognize document_ai:business_license:recognize
document_ai:chinese_passport:recognize document_ai:contract:field_extract
document_ai:driving_license:recognize document_ai:food_manage_license:recognize
document_ai:food_produce_license:recoginze document_ai:health_certificate:recognize
document_ai:hkm_mainland_travel_permit:recognize document_ai:id_card:recognize
document_ai:resume:recognize document_ai:taxi_invoice:recognize
document_ai:train_invoice:recognize document_ai:tw_mainland_travel_permit:recognize
document_ai:vat_invoice:recognize document_ai:vehicle_invoice:recognize
document_ai:vehicle_license:recognize docx:document docx:document.block:convert
docx:document:create docx:document:readonly docx:document:write_only drive:drive
drive:drive.metadata:readonly drive:drive.search:readonly drive:drive:readonly
drive:drive:version drive:drive:version:readonly drive:export:readonly drive:file
drive:file.like:readonly drive:file.meta.sec_label.read_only drive:file:download
drive:file:readonly drive:file:upload drive:file:view_record:readonly
ea_integration_platform:lawfirm_attorney_capacity:read ehr:attachment:readonly
ehr:employee:readonly event:ip_list financial_access_platform:data:write helpdesk:all
helpdesk:all:readonly helpdesk:helpdesk:access hire:advertisement hire:agency
hire:agency:readonly hire:agency_account hire:agency_account:readonly hire:application
hire:application:readonly hire:attachment hire:attachment:readonly hire:auth hire:auth:readonly
hire:background_check_order hire:background_check_order:readonly hire:ehr_import hire:employee
hire:employee:readonly hire:evaluation:readonly hire:exam hire:exam:readonly
hire:external_application hire:external_application:readonly hire:external_offer
hire:external_offer:readonly hire:external_referral_reward hire:interview
hire:interview:readonly hire:interviewer hire:interviewer:readonly hire:job
hire:job.composite_info:readonly hire:job:readonly hire:job_process:readonly
hire:job_requirement hire:job_requirement:readonly hire:location:readonly hire:note
hire:note:readonly hire:offer hire:offer:readonly hire:offer_approval_template:readonly
hire:offer_schema:readonly hire:offer_selection_object hire:questionnaire
hire:questionnaire:readonly hire:referral hire:referral:readonly hire:referral_account
hire:referral_account:readonly hire:referral_website:readonly hire:report.data:read hire:site
hire:site:readonly hire:site_application hire:site_application:readonly
hire:site_job_post:readonly hire:subject:readonly hire:talent hire:talent:readonly
hire:talent_blocklist hire:talent_blocklist:readonly hire:talent_folder
hire:talent_folder:readonly hire:talent_folder_association hire:talent_tag
hire:talent_tag:readonly hire:todo:readonly hire:tripartite_agreement
hire:tripartite_agreement:readonly im:app_feed_card:write im:biz_entity_tag_relation:read
im:biz_entity_tag_relation:write im:chat im:chat.access_event.bot_p2p_chat:read
im:chat.announcement:read im:chat.announcement:write_only im:chat.chat_pins:read
im:chat.chat_pins:write_only im:chat.collab_plugins:read im:chat.collab_plugins:write_only
im:chat.managers:write_only im:chat.members:bot_access im:chat.members:read
im:chat.members:write_only im:chat.menu_tree:read im:chat.menu_tree:write_only
im:chat.moderation:read im:chat.tabs:read im:chat.tabs:write_only im:chat.top_notice:write_only
im:chat.widgets:read im:chat.widgets:write_only im:chat:create im:chat:create_by_user
im:chat:delete im:chat:moderation:write_only im:chat:operate_as_owner im:chat:read
im:chat:readonly im:chat:update im:datasync.feed_card.time_sensitive:write im:message
im:message.group_at_msg:readonly im:message.group_msg im:message.group_msg:get_as_user
im:message.p2p_msg:get_as_user im:message.p2p_msg:readonly im:message.pins:read
im:message.pins:write_only im:message.reactions:read im:message.reactions:write_only
im:message.send_as_user im:message.urgent im:message.urgent.status:write im:message.urgent:phone
im:message.urgent:sms im:message:readonly im:message:recall im:message:send_as_bot
im:message:send_multi_depts im:message:send_multi_users im:message:send_sys_msg
im:message:update im:resource im:tag:read im:tag:write im:url_preview.update im:user_agent:read
mail:event mail:mailgroup mail:mailgroup:readonly mail:public_mailbox
mail:public_mailbox:readonly mail:user_mailbox mail:user_mailbox.event.mail_address:read
mail:user_mailbox.folder:read mail:user_mailbox.folder:write
mail:user_mailbox.mail_contact.mail_address:read mail:user_mailbox.mail_contact.phone:read
mail:user_mailbox.mail_contact:read mail:user_mailbox.mail_contact:write
mail:user_mailbox.message.address:read mail:user_mailbox.message.body:read
mail:user_mailbox.message.subject:read mail:user_mailbox.message:modify
mail:user_mailbox.message:readonly mail:user_mailbox.message:send mail:user_mailbox.rule:read
mail:user_mailbox.rule:write mail:user_mailbox:readonly
mdm:company.company_bank_account.account:readonly mdm:country_region:read mdm:legal_entity
mdm:legal_entity:readonly mdm:spend mdm:spend:readonly mdm:vendor mdm:vendor:readonly
minutes:minutes minutes:minutes.artifacts:read minutes:minutes.basic:read
minutes:minutes.media:export minutes:minutes.search:read minutes:minutes.statistics:read
minutes:minutes.transcript:export minutes:minutes:readonly moments:moments:readonly
myai_data:myai_data:read offline_access okr:okr okr:okr.content:readonly
okr:okr.content:writeonly okr:okr.period:readonly okr:okr.period:writeonly
okr:okr.progress.file:upload okr:okr.progress:delete okr:okr.progress:readonly
okr:okr.progress:writeonly okr:okr.review:readonly okr:okr:readonly
optical_char_recognition:image passport:session:logout passport:session_mask:readonly
payroll:cost_allocation_details:read payroll:cost_allocation_plan:read
payroll:cost_allocation_report:read payroll:external_datasource_configuration:read
payroll:external_datasource_record:read payroll:external_datasource_record:write
payroll:pay_groups:read payroll:payment_activity:archive payroll:payment_activity:monitor
payroll:payment_activity:read payroll:payment_activity_details:read payroll:payment_details:read
payroll:payroll_calculation_item:read performance:metric:read performance:metric:write
performance:metric_lib:read performance:performance performance:performance:readonly
performance:review_template:read performance:semester:read performance:semester_activity:read
performance:semester_activity:write performance:semester_user:read
personal_settings:status:system_status_operate personal_settings:status:system_status_update
report:report report:rule:readonly report:task:readonly search:app search:data_item:create
search:data_item:delete search:data_item:readonly search:data_schemas:create
search:data_schemas:delete search:data_schemas:readonly search:data_schemas:update
search:data_source search:data_source:create search:data_source:delete
search:data_source:readonly search:data_source:update search:dataset.docs:create
search:dataset.docs:delete search:dataset:create search:dataset:delete search:department:read
search:docs:read search:memory_graph_tool_call:read search:message
security_and_compliance:audit_log.openapi_log:readonly
security_and_compliance:device_apply_record:read
security_and_compliance:device_apply_record:write security_and_compliance:device_record:read
security_and_compliance:device_record:write
security_and_compliance:multi_geo_entity.tenant:readonly security_and_compliance:user_migration
security_and_compliance:user_migration:multi-geo security_and_compliance:user_migration:readonly
security_and_compliance:user_migration_task serviceaccount:approval:approvals:read
sheets:spreadsheet sheets:spreadsheet.meta:read sheets:spreadsheet.meta:write_only
sheets:spreadsheet:create sheets:spreadsheet:read sheets:spreadsheet:readonly
sheets:spreadsheet:write_only slides:presentation:create slides:presentation:read
slides:presentation:update slides:presentation:write_only space:document.event:read
space:document:delete space:document:move space:document:retrieve space:document:shortcut
space:folder:create spark:app.sql_commands:write spark:app.storage:write
spark:app.table.record:read spark:app.table.record:write spark:app.table:read
spark:app.table:write spark:data.record.change:read spark:directory.user.id_convert:read
speech_to_text:speech task:attachment:read task:attachment:write task:comment task:comment:read
task:comment:readonly task:comment:write task:custom_field:read task:custom_field:write
task:section:read task:section:write task:task task:task.event_update_tenant:readonly
task:task.privilege:read task:task:read task:task:readonly task:task:write task:task:writeonly
task:tasklist.privilege:read task:tasklist:read task:tasklist:write tenant:tenant.domain:read
tenant:tenant.product_assign_info:read tenant:tenant:readonly translation:text
trust_party:collaboration.tenant:readonly trust_party:collaboration_rule:read
trust_party:collaboration_rule:write vc:alert:readonly vc:export vc:meeting
vc:meeting.all_meeting:readonly vc:meeting.meetingevent:read vc:meeting.meetingid:read
vc:meeting.search:read vc:meeting:readonly vc:note:read vc:record vc:record:readonly
vc:report:readonly vc:reserve vc:reserve:readonly vc:room vc:room:readonly
verification:verification_information:readonly wiki:member:create wiki:member:retrieve
wiki:member:update wiki:node:copy wiki:node:create wiki:node:move wiki:node:read
wiki:node:retrieve wiki:node:update wiki:setting:read wiki:setting:write_only wiki:space:read
wiki:space:retrieve wiki:space:write_only wiki:wiki wiki:wiki:readonly
workplace:workplace_using_data:read
`;

// internal/registry/meta_data.json (lark-cli d5d198a): method scopes missing from the registry.
const CATALOGUE_ONLY = `
bitable:bitable calendar:calendar.calendar:readonly calendar:calendar.event:writeonly
im:chat.group_info:readonly im:message:basic im:resource:upload task:personnel:writeonly
task:task:delete task:tasklist:delete task:tasklist:writeonly
`;

// Lark's contact-v3 user get doc: API permissions missing from both lists above.
const DOCS_ONLY = `contact:contact:access_as_app contact:contact:readonly`;

/** Every scope name Lark knows. */
export const KNOWN_SCOPES: ReadonlySet<string> = new Set(
  `${REGISTRY} ${CATALOGUE_ONLY} ${DOCS_ONLY}`.split(/\s+/).filter((s) => s !== ""),
);

/**
 * The scopes of `scopes` that Lark does not know, in order, without duplicates.
 *
 * @param scopes scope names as a client sent them
 */
export function unknownScopes(scopes: Iterable<string>): string[] {
  return [...new Set([...scopes].filter((s) => !KNOWN_SCOPES.has(s)))];
}
