-- Seeded texts in the reader's language (decision 0178): the platform's device types and model
-- categories hold a catalogue reference instead of English words, resolved on read. Only rows that
-- still hold the shipped words change: a type or category the system manager has renamed keeps its
-- name. The types' names (CANDTU-100…, IOT-DEVICE) are product codes and stay.
update device_types set description = '{{text:seed.type.candtu-100.description}}'
 where tenant_id is null and name = 'CANDTU-100' and description = 'CAN logger, 1 channel';
update device_types set description = '{{text:seed.type.candtu-200.description}}'
 where tenant_id is null and name = 'CANDTU-200' and description = 'CAN/CAN FD logger, 2 channels';
update device_types set description = '{{text:seed.type.candtu-400.description}}'
 where tenant_id is null and name = 'CANDTU-400' and description = 'CAN/CAN FD logger, 4 channels';
update device_types set description = '{{text:seed.type.candtu-800.description}}'
 where tenant_id is null and name = 'CANDTU-800' and description = 'CAN/CAN FD logger, 8 channels';
update device_types set display_name = '{{text:seed.type.iot.display}}'
 where tenant_id is null and name = 'IOT-DEVICE' and display_name = 'IoT device';
update device_types set description = '{{text:seed.type.iot.description}}'
 where tenant_id is null and name = 'IOT-DEVICE' and description = 'Plain IoT device sending JSON telemetry';

update model_categories set name = '{{text:seed.category.can-logger.name}}', description = '{{text:seed.category.can-logger.description}}'
 where tenant_id is null and name = 'CAN logger';
update model_categories set name = '{{text:seed.category.iot.name}}', description = '{{text:seed.category.iot.description}}'
 where tenant_id is null and name = 'IoT device';

-- The experience tenant's demo rows made before: renamed to the references the seed now writes, so
-- the seed finds them (it looks its rows up by name) instead of making them again.
update device_types d set name = '{{text:seed.demo.type.name}}', display_name = '{{text:seed.demo.type.display}}',
       description = '{{text:seed.demo.type.description}}'
  from tenants t where t.id = d.tenant_id and t.is_demo and d.name = 'Demo CAN logger';
update things x set name = case x.name when 'Demo truck 1' then '{{text:seed.demo.truck-1}}'
                                       when 'Demo truck 2' then '{{text:seed.demo.truck-2}}'
                                       else '{{text:seed.demo.van-3}}' end
  from tenants t where t.id = x.tenant_id and t.is_demo and x.name in ('Demo truck 1', 'Demo truck 2', 'Demo van 3');
update things x set description = '{{text:seed.demo.device.description}}'
  from tenants t where t.id = x.tenant_id and t.is_demo and x.description = 'Demo vehicle of the experience account';
update vehicles v set name = '{{text:seed.demo.truck-1}}',
       description = case when v.description = 'Hybrid truck on the Pudong loop' then '{{text:seed.demo.vehicle.description}}' else v.description end,
       channels = replace(replace(v.channels::text, '"Powertrain CAN"', '"{{text:seed.demo.ch.powertrain}}"'),
                          '"Body CAN"', '"{{text:seed.demo.ch.body}}"')::jsonb
  from tenants t where t.id = v.tenant_id and t.is_demo and v.name = 'Demo truck 1';
update fences f set name = '{{text:seed.demo.fence.name}}', description = '{{text:seed.demo.fence.description}}'
  from tenants t where t.id = f.tenant_id and t.is_demo and f.name = 'Century Park';
update trigger_rules r set
       name = case r.name when 'Overspeed > 100 km/h' then '{{text:seed.demo.rule.speed.name}}'
                          when 'Battery SOC < 25 %' then '{{text:seed.demo.rule.soc.name}}'
                          else '{{text:seed.demo.rule.fence.name}}' end,
       description = case r.name when 'Overspeed > 100 km/h' then '{{text:seed.demo.rule.speed.description}}'
                                 when 'Battery SOC < 25 %' then '{{text:seed.demo.rule.soc.description}}'
                                 else '{{text:seed.demo.rule.fence.description}}' end,
       alert_description = case r.name when 'Overspeed > 100 km/h' then '{{text:seed.demo.rule.speed.alert}}'
                                       when 'Battery SOC < 25 %' then '{{text:seed.demo.rule.soc.alert}}'
                                       else '{{text:seed.demo.rule.fence.alert}}' end
  from tenants t where t.id = r.tenant_id and t.is_demo
   and r.name in ('Overspeed > 100 km/h', 'Battery SOC < 25 %', 'Entering Century Park');
update dashboard_panels p set name = case p.name when 'Vehicle speed' then '{{text:seed.demo.sig.speed}}'
                                         when 'Battery SOC' then '{{text:seed.demo.sig.soc}}'
                                         when 'Coolant temperature' then '{{text:seed.demo.sig.coolant}}'
                                         when 'Speed and throttle' then '{{text:seed.demo.sig.drive}}'
                                         else '{{text:seed.demo.sig.current}}' end
  from tenants t where t.id = p.tenant_id and t.is_demo
   and p.name in ('Vehicle speed', 'Battery SOC', 'Coolant temperature', 'Speed and throttle', 'Battery current');
